import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { InteractionResponseType, MessageFlags } from 'discord.js';
import { asMember, buttonIds, moderator, textOf } from '../../tools/conversation.js';
import { member } from '../../tools/discord-standin/index.js';
import { startWorld, type World } from '../../tools/world.js';
import { CRITIC, NOBODY, VOTER } from '../../tools/seed.js';
import { clockSteps } from '../support/clock-steps.js';

const VOTE_URL = 'https://listing.example/servers/123/vote';

let world: World;
/** The bot's monotonic clock, which its cache reads: moved past an entry's life instead of waiting it out. */
const clock = clockSteps();
beforeAll(async () => {
  // A short cache (1 s), so a test that changes the sandbox's data sees it once the clock moves on.
  world = await startWorld({
    env: { VOTE_URL, SERVICE_CACHE_TTL_SECONDS: '1', SERVICE_NOT_VOTED_TTL_SECONDS: '1', ...clock.env },
  });
});
afterAll(async () => {
  await world?.close();
  clock.remove();
});
beforeEach(() => {
  world.sandbox.reset();
});

describe('/vote', () => {
  it("shows the caller's own vote by default, ephemerally, with when it runs out", async () => {
    const message = await asMember(world.discord, member({ id: VOTER }))
      .command('vote')
      .waitForMessage();
    expect(message.flags & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    const text = textOf(message);
    expect(text).toContain(`<@${VOTER}>`);
    expect(text).toMatch(/<t:\d+:R>/);
    expect(text).toMatch(/<t:\d+:f>/);
  });

  it('shows a member who has not voted how to vote, with a link button to the vote page', async () => {
    const message = await asMember(world.discord).command('vote', { member: NOBODY }).waitForMessage();
    expect(textOf(message)).toMatch(/not|no active vote/i);
    const link = message.components[0]?.components[0];
    expect(link).toMatchObject({ type: 2, style: 5, url: VOTE_URL });
  });

  it('shares the answer with the channel when public is true', async () => {
    const message = await asMember(world.discord).command('vote', { member: VOTER, public: true }).waitForMessage();
    expect(message.flags & MessageFlags.Ephemeral).toBe(0);
  });

  it('pings nobody, whoever it mentions', async () => {
    const handle = asMember(world.discord).command('vote', { member: VOTER, public: true });
    await handle.waitForMessage();
    expect(handle.callbacks[0]?.data.allowed_mentions).toEqual({ parse: [] });
  });

  it('asks the service once for two checks of the same member in a row', async () => {
    const fresh = '300000000000000077';
    world.sandbox.setVote(fresh, 3_600_000);
    const asker = asMember(world.discord);
    await asker.command('vote', { member: fresh }).waitForMessage();
    await asker.command('vote', { member: fresh }).waitForMessage();
    expect(world.sandbox.requests.filter((r) => r.path.endsWith(fresh))).toHaveLength(1);
  });
});

describe('/votes', () => {
  it('shows the totals and the first 10 active voters, soonest to run out first', async () => {
    const message = await asMember(world.discord).command('votes').waitForMessage();
    const text = textOf(message);
    expect(text).toMatch(/4,812/);
    expect(text).toMatch(/367/);
    const voters = [...(message.embeds[0]?.description ?? '').matchAll(/<@(\d+)>/g)];
    expect(voters).toHaveLength(10);
    expect(buttonIds(message)).toEqual(['votes-page:1', 'votes-page:2']);
    expect(text).toMatch(/Page 1 of 3/);
  });

  it('turns the page in place with Next, from the cached list', async () => {
    const member = asMember(world.discord);
    const first = await member.command('votes').waitForMessage();
    const requestsBefore = world.sandbox.requestCount('listVotes');
    const next = member.click(first, 'votes-page:2');
    const page2 = await next.waitForMessage();
    expect(next.callbacks[0]?.type).toBe(InteractionResponseType.UpdateMessage);
    expect(page2.id).toBe(first.id);
    expect(textOf(page2)).toMatch(/Page 2 of 3/);
    expect(buttonIds(page2)).toEqual(['votes-page:1', 'votes-page:3']);
    expect(world.sandbox.requestCount('listVotes')).toBe(requestsBefore);
  });

  it('says so kindly when nobody has an active vote', async () => {
    for (const voter of await listVoters()) world.sandbox.setVote(voter, null);
    // The list an earlier test cached has run out: the bot asks the service again.
    await clock.forward(world.bot, 1_100);
    const asked = world.sandbox.requestCount('listVotes');
    const message = await asMember(world.discord).command('votes').waitForMessage();
    expect(world.sandbox.requestCount('listVotes')).toBe(asked + 1);
    expect(textOf(message)).toMatch(/No active votes/);
    expect(buttonIds(message)).toEqual([]);
  });

  it('refuses a page button with a malformed page number', async () => {
    const member = asMember(world.discord);
    const first = await member.command('votes').waitForMessage();
    const answer = await member.click(first, 'votes-page:-1').waitForMessage();
    expect(answer.flags & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    expect(textOf(answer)).toMatch(/not recognised/);
  });
});

describe('/review', () => {
  it('shows stars, escaped content, likes, replies and when it was written', async () => {
    const message = await asMember(world.discord).command('review', { member: CRITIC }).waitForMessage();
    const description = message.embeds[0]?.description ?? '';
    expect(description).toMatch(/★★☆☆☆/);
    expect(description).toContain('\\*\\*bold\\*\\*');
    expect(description).not.toMatch(/(^|[^\u200b])@everyone/);
    expect(textOf(message)).toMatch(/Likes[\s\S]*Replies[\s\S]*<t:\d+:R>/);
    expect(message.flags & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
  });

  it('offers moderators a Reply button and ordinary members none', async () => {
    const forModerator = await asMember(world.discord, moderator())
      .command('review', { member: CRITIC })
      .waitForMessage();
    expect(buttonIds(forModerator)).toEqual(['review-reply:rev_Kd81PzQ4']);
    const forMember = await asMember(world.discord).command('review', { member: CRITIC }).waitForMessage();
    expect(buttonIds(forMember)).toEqual([]);
  });

  it('says clearly when the member has no review', async () => {
    const message = await asMember(world.discord).command('review', { member: NOBODY }).waitForMessage();
    expect(textOf(message)).toContain(`<@${NOBODY}> has not written a review yet.`);
  });
});

async function listVoters(): Promise<string[]> {
  const response = await fetch(`${world.sandbox.baseUrl}/votes`, {
    headers: { 'Service-Api-Key': world.sandbox.apiKey, 'Service-App-Id': world.sandbox.appId },
  });
  const body = (await response.json()) as { votes: Array<{ userId: string }> };
  return body.votes.map((v) => v.userId);
}
