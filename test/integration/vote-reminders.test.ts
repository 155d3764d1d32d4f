import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REST } from 'discord.js';
import { discordPoster } from '../../src/bot/poster.js';
import { LATE_LIMIT_MS, VoteReminder } from '../../src/reminders/vote-reminder.js';
import { openStore, type Store, type StoreRoot } from '../../src/store/index.js';
import { capturedLog } from '../support/captured-log.js';
import { DEFAULTS, member, startDiscordStandIn, type DiscordStandIn } from '../../tools/discord-standin/index.js';

const VOTE_URL = 'https://guilds.example/vote';

let discord: DiscordStandIn;
let root: StoreRoot;
let store: Store;
let dir: string;
// The stand-in's token is a secret like any bot token: the logger scrubs it.
const { logger, lines } = capturedLog([DEFAULTS.token]);
let clock = Date.now();

function reminder(channelId?: string): VoteReminder {
  return new VoteReminder({
    poster: discordPoster(new REST({ api: discord.apiUrl }).setToken(discord.token)),
    store,
    logger,
    now: () => clock,
    voteUrl: VOTE_URL,
    channelId,
    serverName: () => 'Cozy *Corner*',
  });
}

beforeAll(async () => {
  discord = await startDiscordStandIn();
  dir = mkdtempSync(path.join(tmpdir(), 'bot-reminders-'));
  root = await openStore({ kind: 'sqlite', file: path.join(dir, 'bot.sqlite') });
  store = root.forServer(discord.guildId);
});
afterAll(async () => {
  await root?.close();
  await discord?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the vote reminder', () => {
  it('DMs an opted-in member once per vote period, in their language, with the vote link', async () => {
    const { user } = member();
    await store.optInReminders(user.id, 'de', clock);
    const endsAt = clock - 1_000;
    const remind = reminder();
    // A consumer beside it (the voter role) failing keeps the entry: the schedule calls again.
    await remind.onExpired(user.id, endsAt);
    await remind.onExpired(user.id, endsAt);
    const dms = discord.directMessages(user.id);
    expect(dms).toHaveLength(1);
    expect(dms[0]!.embeds[0].title).toBe('Du kannst wieder abstimmen');
    expect(dms[0]!.embeds[0].description).toContain('**Cozy \\*Corner\\***');
    expect(dms[0]!.components[0].components[0]).toMatchObject({ style: 5, url: VOTE_URL });
    expect(dms[0]!.content).toBe('');
    expect(await store.lastReminder(user.id)).toMatchObject({ endsAt, outcome: 'dm' });
    // The next vote period is a new reminder.
    const next = endsAt + 12 * 3_600_000;
    clock = next + 1_000;
    await remind.onExpired(user.id, next);
    expect(discord.directMessages(user.id)).toHaveLength(2);
  });

  it('sends nothing to a member who did not opt in, or turned reminders off', async () => {
    const never = member().user;
    const stopped = member().user;
    await store.optInReminders(stopped.id, 'en-US', clock);
    await store.optOutReminders(stopped.id);
    const remind = reminder();
    await remind.onExpired(never.id, clock - 1_000);
    await remind.onExpired(stopped.id, clock - 1_000);
    expect(discord.directMessages(never.id)).toEqual([]);
    expect(discord.directMessages(stopped.id)).toEqual([]);
    expect(await store.lastReminder(stopped.id)).toBeUndefined();
  });

  it('skips a reminder more than an hour late (the bot was down), and says so in the log', async () => {
    const { user } = member();
    await store.optInReminders(user.id, 'en-US', clock);
    const endsAt = clock - LATE_LIMIT_MS - 60_000;
    await reminder().onExpired(user.id, endsAt);
    expect(discord.directMessages(user.id)).toEqual([]);
    expect(await store.lastReminder(user.id)).toMatchObject({ endsAt, outcome: 'late' });
    expect(lines.filter((l) => l.userId === user.id).map((l) => l.msg)).toEqual([
      'vote reminder skipped: the vote ran out over an hour ago, while the bot was down',
    ]);
    // Just inside the hour it still goes out.
    const other = member().user;
    await store.optInReminders(other.id, 'en-US', clock);
    await reminder().onExpired(other.id, clock - LATE_LIMIT_MS + 60_000);
    expect(discord.directMessages(other.id)).toHaveLength(1);
  });

  it('with DMs closed: one mention in the fallback channel that pings only that member; without one, a log line', async () => {
    const { user } = member();
    discord.closeDms(user.id);
    await store.optInReminders(user.id, 'en-US', clock);
    const before = discord.channelMessages(discord.channelId).length;
    const remind = reminder(discord.channelId);
    await remind.onExpired(user.id, clock - 1_000);
    await remind.onExpired(user.id, clock - 1_000);
    const posted = discord.channelMessages(discord.channelId).slice(before);
    expect(posted).toHaveLength(1);
    expect(posted[0]!.content).toContain(`<@${user.id}>`);
    expect(posted[0]!.embeds[0].title).toBe('You can vote again');
    const create = discord.requests
      .filter((r) => r.method === 'POST' && r.path.endsWith(`/channels/${discord.channelId}/messages`))
      .at(-1);
    expect(create!.body.allowed_mentions).toEqual({ users: [user.id] });
    expect(await store.lastReminder(user.id)).toMatchObject({ outcome: 'channel' });

    const quiet = member().user;
    discord.closeDms(quiet.id);
    await store.optInReminders(quiet.id, 'en-US', clock);
    await reminder().onExpired(quiet.id, clock - 1_000);
    expect(discord.channelMessages(discord.channelId).slice(before)).toHaveLength(1);
    expect(await store.lastReminder(quiet.id)).toMatchObject({ outcome: 'undelivered' });
    expect(lines.filter((l) => l.userId === quiet.id).map((l) => l.msg)).toEqual([
      "vote reminder not delivered: the member's DMs are closed and REMINDER_CHANNEL_ID is not set",
    ]);
  });

  it('never writes the bot token into the log', () => {
    expect(discord.token).toBe(DEFAULTS.token);
    expect(JSON.stringify(lines)).not.toContain(DEFAULTS.token);
  });
});
