import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { migrate, MIGRATIONS } from '../../src/store/migrations.js';
import { openSqlite } from '../../src/store/sqlite.js';
import { asMember, textOf } from '../../tools/conversation.js';
import {
  DEFAULTS,
  member,
  MODERATOR_PERMISSIONS,
  nextSnowflake,
  OptionType,
  slashCommand,
  textChannelIdFor,
  type CommandOption,
  type RecordedRequest,
} from '../../tools/discord-standin/index.js';
import { deliver, voteEvent } from '../../tools/guilds-webhook.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { startWorld, type World } from '../../tools/world.js';

const GUILD = DEFAULTS.guildId;
const CHANNEL = textChannelIdFor(GUILD);
const HOUR = 3_600_000;
const admin = member({ permissions: MODERATOR_PERMISSIONS });

afterAll(removeStoreFiles);

function setup(world: World, sub: string, options: CommandOption[]) {
  return world.discord.sendInteraction(
    slashCommand({ name: 'setup', member: admin, options: [{ name: sub, type: OptionType.Subcommand, options }] }),
  );
}
const text = (name: string, value: string): CommandOption => ({ name, type: OptionType.String, value });
const flag = (name: string, value: boolean): CommandOption => ({ name, type: OptionType.Boolean, value });

/** The REST bodies of the messages the bot posted in the vote channel, oldest first. */
const channelPosts = (world: World): Array<RecordedRequest['body']> =>
  world.discord.requests
    .filter((r) => r.method === 'POST' && r.path === `/channels/${CHANNEL}/messages` && r.status === 200)
    .map((r) => r.body);
const postsNaming = (world: World, userId: string) =>
  channelPosts(world).filter((body) => String(body.content ?? '').includes(`<@${userId}>`));
/** The voter's line in the one announcement that names them (a batch has a line per voter). */
const lineNaming = (world: World, userId: string) =>
  postsNaming(world, userId)
    .flatMap((body) => String(body.content).split('\n'))
    .filter((line) => line.includes(`<@${userId}>`));

describe('announcement templates', () => {
  let world: World;
  let url: string;
  beforeAll(async () => {
    const { url: webhookUrl, ...env } = await receiverEnv({ VOTE_CHANNEL_ID: CHANNEL });
    url = webhookUrl;
    world = await startWorld({ env });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('refuses an unknown placeholder, listing the known ones, and keeps the built-in announcement', async () => {
    const refusal = await setup(world, 'announce', [text('template', '{user} is number {rank}')]).waitForMessage();
    expect(textOf(refusal)).toContain('{rank}');
    expect(textOf(refusal)).toContain('{votes_month}');
    const voter = nextSnowflake();
    expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voter))).toBe(200);
    await world.discord.waitUntil(
      () => world.discord.channelMessages(CHANNEL).some((m) => (m.embeds[0]?.description ?? '').includes(voter)),
      10_000,
      'the built-in announcement',
    );
  });

  it('refuses a template that shows nothing, saying why, and keeps the built-in announcement', async () => {
    for (const blank of ['\u200b\u2060\u202e', '\u200b{double}']) {
      const refusal = textOf(await setup(world, 'announce', [text('template', blank)]).waitForMessage());
      expect(refusal).toContain('would show nothing');
      expect(refusal).toContain('Nothing was changed');
    }
    const voter = nextSnowflake();
    expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voter))).toBe(200);
    await world.discord.waitUntil(
      () => world.discord.channelMessages(CHANNEL).some((m) => (m.embeds[0]?.description ?? '').includes(voter)),
      10_000,
      'the built-in announcement',
    );
  });

  it('shows a preview without saving or posting anything', async () => {
    const before = world.discord.channelMessages(CHANNEL).length;
    const preview = await setup(world, 'announce', [
      text('template', 'PREVIEW ONLY {user} · {streak} in a row'),
      flag('preview', true),
    ]).waitForMessage();
    expect(textOf(preview)).toContain(`PREVIEW ONLY <@${admin.user.id}> · 3 in a row`);
    const voter = nextSnowflake();
    expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voter))).toBe(200);
    await world.discord.waitUntil(
      () => world.discord.channelMessages(CHANNEL).length > before,
      10_000,
      'the next announcement',
    );
    expect(world.discord.channelMessages(CHANNEL).map(textOf).join('\n')).not.toContain('PREVIEW ONLY');
  });

  it('pings only the voter from {user}, whatever mentions the admin typed', async () => {
    const other = nextSnowflake();
    const role = nextSnowflake();
    const template = `{user} voted {double}! @everyone @here <@&${role}> <@${other}> · {votes_month} this month, {streak} in a row`;
    const set = await setup(world, 'announce', [text('template', template), flag('ping', true)]).waitForMessage();
    expect(textOf(set)).toMatch(/Announcements worded/);
    const voter = nextSnowflake();
    expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voter, true))).toBe(200);
    await world.discord.waitUntil(() => postsNaming(world, voter).length === 1, 10_000, 'the announcement');
    const [body] = postsNaming(world, voter);
    expect(body.allowed_mentions).toEqual({ parse: [], users: [voter] });
    expect(body.content).toContain(`<@${voter}> voted (double vote)!`);
    expect(body.content).toContain('2 this month, 1 in a row');
    expect(body.content).not.toMatch(/@(everyone|here)/);
    expect(body.content).not.toContain(`<@&${role}>`);
    expect(body.content).not.toContain(`<@${other}>`);
    expect(body.content.match(/<@!?&?\d+>/g)).toEqual([`<@${voter}>`]);
  });

  it("words a member's first vote with the first-vote template, and pings nobody once pings are off", async () => {
    await setup(world, 'announce', [
      text('first-vote', 'Welcome, {user}, first vote from {name}!'),
      flag('ping', false),
    ]).waitForMessage();
    const voter = nextSnowflake();
    expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voter))).toBe(200);
    await world.discord.waitUntil(() => postsNaming(world, voter).length === 1, 10_000, 'the announcement');
    const [body] = postsNaming(world, voter);
    expect(body.content).toBe(`Welcome, <@${voter}>, first vote from Voter!`);
    expect(body.allowed_mentions).toEqual({ parse: [], users: [] });
  });

  it('batches a burst into few messages, each voter once, each message within 2,000 characters', async () => {
    await setup(world, 'announce', [
      text('first-vote', `{user} joined the voters of {server}. ${'Thank you! '.repeat(12)}`),
      flag('ping', true),
    ]).waitForMessage();
    const voters = Array.from({ length: 30 }, () => nextSnowflake());
    const before = channelPosts(world).length;
    await Promise.all(
      voters.map(async (voter) => expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voter))).toBe(200)),
    );
    await world.discord.waitUntil(
      () => voters.every((voter) => postsNaming(world, voter).length > 0),
      20_000,
      'every voter announced',
    );
    const posts = channelPosts(world).slice(before);
    expect(posts.length).toBeGreaterThan(1);
    expect(posts.length).toBeLessThan(voters.length / 3);
    for (const body of posts) {
      expect(body.content.length).toBeLessThanOrEqual(2_000);
      expect(body.allowed_mentions.users.length).toBeLessThanOrEqual(100);
    }
    for (const voter of voters) expect(postsNaming(world, voter)).toHaveLength(1);
    expect(posts.flatMap((body) => body.allowed_mentions.users).sort()).toEqual([...voters].sort());
  });
});

describe('vote streaks', () => {
  const KEEPER = nextSnowflake();
  const BREAKER = nextSnowflake();
  const LATE = nextSnowflake();
  let world: World;
  let url: string;
  beforeAll(async () => {
    const { url: webhookUrl, ...env } = await receiverEnv({ VOTE_CHANNEL_ID: CHANNEL });
    url = webhookUrl;
    // A store of the release before streaks, with the votes it recorded: migration 7 rebuilds their streaks.
    const db = openSqlite(env.DATABASE_URL!.slice('file:'.length));
    await migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= 6),
    );
    const now = Date.now();
    const recorded: Array<[string, number]> = [
      // Three periods in a row, each vote 1 h after the last ran out; the last ran out 2 h ago.
      [KEEPER, now - 40 * HOUR],
      [KEEPER, now - 27 * HOUR],
      [KEEPER, now - 14 * HOUR],
      // Broken: 17 h after the first ran out, and the second ran out 19 h ago.
      [BREAKER, now - 60 * HOUR],
      [BREAKER, now - 31 * HOUR],
      // Two in a row, the last ran out 25 h ago: alive only with a grace of more than 25 h.
      [LATE, now - 50 * HOUR],
      [LATE, now - 37 * HOUR],
    ];
    for (const [userId, at] of recorded)
      await db.query(
        `INSERT INTO votes (guild_id, user_id, voted_at, is_double, source, period_ends_at, announced_at)
         VALUES ('', $1, $2, 0, 'webhook', $3, $2)`,
        [userId, at, at + 12 * HOUR],
      );
    await db.close();
    world = await startWorld({ env });
    await setup(world, 'announce', [text('template', '{user} keeps a streak of {streak}')]).waitForMessage();
  });
  afterAll(async () => {
    await world?.close();
  });

  const streakField = async (userId: string) => {
    const reply = await asMember(world.discord).command('vote', { member: userId }).waitForMessage();
    return reply.embeds[0]?.fields?.find((f: { name: string }) => f.name === 'Streak')?.value as string | undefined;
  };

  it('shows in /vote the streak rebuilt from recorded votes, and none for a broken one', async () => {
    expect(await streakField(KEEPER)).toBe('3 in a row');
    expect(await streakField(BREAKER)).toBeUndefined();
  });

  it('goes on with a vote inside the grace window and starts again after it; {streak} and the leaderboard show it', async () => {
    expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, KEEPER))).toBe(200);
    expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, BREAKER))).toBe(200);
    await world.discord.waitUntil(
      () => postsNaming(world, KEEPER).length === 1 && postsNaming(world, BREAKER).length === 1,
      10_000,
      'both announcements',
    );
    expect(lineNaming(world, KEEPER)).toEqual([`<@${KEEPER}> keeps a streak of 4`]);
    expect(lineNaming(world, BREAKER)).toEqual([`<@${BREAKER}> keeps a streak of 1`]);
    expect(await streakField(KEEPER)).toBe('4 in a row');

    const board = textOf(await asMember(world.discord).command('leaderboard', { kind: 'streak' }).waitForMessage());
    expect(board).toContain('streaks');
    const lines = board.split('\n');
    expect(lines.find((line) => line.includes(`<@${KEEPER}>`))).toMatch(/^1\\\. .*4 in a row$/);
    expect(lines.find((line) => line.includes(`<@${BREAKER}>`))).toMatch(/^2\\\. .*1 in a row$/);
    expect(board).not.toContain(`<@${LATE}>`);
  });

  it('follows the grace window set with /setup streak', async () => {
    const restarts = () => world.bot.logs.filter((l) => l.msg === 'server work restarted with new settings').length;
    const before = restarts();
    const set = await setup(world, 'streak', [
      { name: 'grace-hours', type: OptionType.Integer, value: 48 },
    ]).waitForMessage();
    expect(textOf(set)).toContain('48 h');
    await world.discord.waitUntil(() => restarts() > before, 10_000, 'the server to restart with the setting');
    expect(await streakField(LATE)).toBe('2 in a row');
    expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, LATE))).toBe(200);
    await world.discord.waitUntil(() => postsNaming(world, LATE).length === 1, 10_000, 'the announcement');
    expect(lineNaming(world, LATE)).toEqual([`<@${LATE}> keeps a streak of 3`]);
  });
});
