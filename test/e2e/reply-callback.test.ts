import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { asMember, textOf } from '../../tools/conversation.js';
import { VOTER } from '../../tools/seed.js';
import { startWorld, type World } from '../../tools/world.js';

/*
 * A plain answer goes to the interaction callback over undici, not through @discordjs/rest: what
 * that path did beyond one request (a 429's wait, a 5xx retried) must still happen, and the
 * callback still carries no bot token.
 */
describe("a plain answer's callback", () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(async () => {
    await world?.close();
  });

  const callbacks = (interactionId: string) =>
    world.discord.requests.filter((r) => r.path.startsWith(`/interactions/${interactionId}/`));

  it.each([429, 500])('reaches the member after Discord answered the first try with %i', async (status) => {
    world.discord.failCallbacks(status, 1);
    const vote = asMember(world.discord).command('vote', { member: VOTER });
    expect(textOf(await vote.waitForMessage())).toContain('has voted');
    expect(callbacks(vote.id).map((r) => r.status)).toEqual([status, 204]);
  });

  it('is not sent again when Discord took it and the connection dropped during its answer', async () => {
    world.discord.breakCallbackAnswers(1);
    const vote = asMember(world.discord).command('vote', { member: VOTER });
    expect(textOf(await vote.waitForMessage())).toContain('has voted');
    // Sent again, it would arrive within a second (@discordjs/rest, no wait asked for).
    const sentAgain = await world.discord
      .waitUntil(() => callbacks(vote.id).length > 1, 1_500, 'a second callback')
      .then(
        () => true,
        () => false,
      );
    expect(sentAgain).toBe(false);
    expect(callbacks(vote.id).map((r) => r.status)).toEqual([204]);
  });

  it('is sent without the bot token, as discord.js sends it', async () => {
    const vote = asMember(world.discord).command('vote', { member: VOTER });
    await vote.waitForMessage();
    const [callback] = callbacks(vote.id);
    expect(callback?.headers.authorization).toBeUndefined();
    expect(callback?.headers['user-agent']).toMatch(/^DiscordBot \(https:\/\/discord\.js\.org, /);
  });
});
