import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { asMember, moderator, textOf } from '../../tools/conversation.js';
import { member } from '../../tools/discord-standin/index.js';
import { CRITIC, CRITIC_REVIEW, NOBODY, VOTER } from '../../tools/seed.js';
import { startWorld, type World } from '../../tools/world.js';

let world: World;
beforeAll(async () => {
  world = await startWorld({ env: { VOTE_URL: 'https://listing.example/vote' } });
});
afterAll(async () => {
  await world?.close();
});
beforeEach(() => {
  world.sandbox.reset();
});

describe("answers in the member's language", () => {
  it('answers /vote in German for a member whose client is in German', async () => {
    const message = await asMember(world.discord, member({ id: VOTER }), 'de')
      .command('vote')
      .waitForMessage();
    const embed = message.embeds[0];
    expect(embed?.title).toBe('Stimme aktiv');
    expect(embed?.description).toBe(`<@${VOTER}>, du hast abgestimmt. Danke!`);
    expect(embed?.fields.map((f: { name: string }) => f.name)).toEqual(['Läuft ab', 'Genaue Zeit', 'Verbleibend']);
  });

  it('answers in English when the locale has no catalog', async () => {
    const message = await asMember(world.discord, member({ id: VOTER }), 'ja')
      .command('vote')
      .waitForMessage();
    expect(message.embeds[0]?.title).toBe('Vote active');
  });

  it('labels the vote button and the page in Brazilian Portuguese, with numbers in its format', async () => {
    const message = await asMember(world.discord, member(), 'pt-BR')
      .command('vote', { member: NOBODY })
      .waitForMessage();
    expect(message.embeds[0]?.title).toBe('Nenhum voto ativo');
    expect(message.components[0]?.components[0]?.label).toBe('Votar agora');
    const votes = await asMember(world.discord, member(), 'pt-BR').command('votes').waitForMessage();
    expect(votes.embeds[0]?.fields.map((f: { name: string }) => f.name)).toEqual([
      'No total',
      'Este mês',
      'Ativos agora',
    ]);
    expect(textOf(votes)).toMatch(/Página 1 de \d+/);
  });

  it('opens the reply form in French and refuses a non-moderator in Spanish', async () => {
    const mod = asMember(world.discord, moderator(), 'fr');
    const review = await mod.command('review', { member: CRITIC }).waitForMessage();
    expect(review.embeds[0]?.title).toBe('Avis');
    expect(review.embeds[0]?.description).toMatch(/ · par <@\d+>/);
    const modal = await mod.click(review, `review-reply:${CRITIC_REVIEW}`).waitForModal();
    expect(modal.title).toBe('Répondre à l’avis');
    const labels = modal.components.map((c: { label: string }) => c.label);
    expect(labels).toEqual(['Votre réponse', 'Épingler cette réponse ?']);

    const refusal = await asMember(world.discord, member(), 'es-ES')
      .click(review, `review-reply:${CRITIC_REVIEW}`)
      .waitForMessage();
    expect(refusal.embeds[0]?.title).toBe('Solo moderación');
    expect(world.sandbox.requestCount('postReply')).toBe(0);
  });

  it('updates a French review in place after a reply sent from a German client, and confirms in German', async () => {
    const review = await asMember(world.discord, moderator(), 'fr')
      .command('review', { member: CRITIC })
      .waitForMessage();
    const submit = asMember(world.discord, moderator(), 'de').submitReply(review, CRITIC_REVIEW, 'Danke!');
    const updated = await submit.waitForMessage();
    expect(updated.embeds[0]?.title).toBe('Bewertung');
    await submit.waitFor((h) => h.followUps().length === 1);
    expect(submit.followUps()[0]?.embeds[0]?.title).toBe('Antwort veröffentlicht');
    expect(world.sandbox.requestCount('postReply')).toBe(1);
  });
});
