import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { asMember, buttonIds, textOf } from '../../tools/conversation.js';
import { DEFAULTS, member, nextSnowflake } from '../../tools/discord-standin/index.js';
import { deliver, voteEvent } from '../../tools/guilds-webhook.js';
import { closedPort } from '../../tools/closed-port.js';
import { startWorld, type World } from '../../tools/world.js';

const TOKEN = 'guilds-webhook-token-for-tests';
const GUILD = DEFAULTS.guildId;

let world: World;
let url: string;
beforeAll(async () => {
  const port = await closedPort();
  url = `http://127.0.0.1:${port}/webhook`;
  world = await startWorld({
    env: { WEBHOOK_PORT: String(port), WEBHOOK_HOST: '127.0.0.1', WEBHOOK_TOKEN: TOKEN, VOTE_POLL_SECONDS: '0' },
  });
});
afterAll(async () => {
  await world?.close();
});

const thisMonth = () => new Date().toISOString().slice(0, 7);

describe('/leaderboard', () => {
  it('ranks the votes recorded this month, a double as two, ties sharing a rank, 10 a page, pinging nobody', async () => {
    // 12 voters: the first votes double, outside Discord (no name in the delivery); the rest once each.
    const voters = Array.from({ length: 12 }, () => nextSnowflake());
    for (const [index, voter] of voters.entries()) {
      expect(await deliver(url, TOKEN, voteEvent(GUILD, voter, index === 0, index !== 0))).toBe(200);
    }
    await world.bot.waitForLog(
      (l) => l.msg === 'vote accepted' && l.userId === voters.at(-1),
      10_000,
      'the last vote to be recorded',
    );
    world.discord.addMembers([member({ id: voters[0], username: 'ada', nick: 'Ada' })]);

    const asker = asMember(world.discord);
    const handle = asker.command('leaderboard');
    const first = await handle.waitForMessage();
    const text = textOf(first);
    expect(first.embeds[0]?.title).toMatch(/^Leaderboard · \w+ \d{4}$/);
    expect(text).toContain(`1\\. <@${voters[0]}> (Ada) · 2 votes`);
    // The first voter's name came from the gateway, the second's from Guilds' delivery.
    expect(text).toMatch(new RegExp(`2\\\\. <@${voters[1]}> \\(Voter\\) · 1 vote\\n`));
    expect(text).toMatch(/Counting since <t:\d+:D>\./);
    expect(first.embeds[0]?.footer?.text).toBe('Page 1 of 2');
    expect(handle.callbacks[0]?.data.allowed_mentions).toEqual({ parse: [] });
    // Every member after the first has one vote: all share rank 2.
    expect(text.match(/\n2\\\. /g)).toHaveLength(9);

    const next = buttonIds(first).find((id) => id.endsWith(':2'))!;
    expect(next).toBe(`leaderboard-page:${thisMonth()}:2`);
    const second = await asker.click(first, next).waitForMessage();
    expect(textOf(second)).toContain('Page 2 of 2');
    expect(textOf(second).match(/\n2\\\. /g)).toHaveLength(2);
  });

  it('shows an earlier month with nobody in it, and refuses a month it cannot read', async () => {
    const empty = await asMember(world.discord).command('leaderboard', { month: '2001-01' }).waitForMessage();
    expect(textOf(empty)).toContain('No votes recorded in January 2001.');
    const refusal = await asMember(world.discord).command('leaderboard', { month: 'soon' }).waitForMessage();
    expect(refusal.embeds[0]?.title).toBe('Month not understood');
    expect(textOf(refusal)).toContain(`for example ${thisMonth()}`);
  });
});
