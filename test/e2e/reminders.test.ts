import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MessageFlags } from 'discord.js';
import { startBot, type BotProcess } from '../../tools/bot-process.js';
import { asMember, textOf } from '../../tools/conversation.js';
import { DEFAULTS, member, textChannelIdFor, type MemberPayload } from '../../tools/discord-standin/index.js';
import { deliver, voteEvent } from '../../tools/guilds-webhook.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { botEnvironment, startWorld, type World } from '../../tools/world.js';
import { pollUntil } from '../support/poll-until.js';
import { endsHandled, scheduledEnd } from '../support/store-reads.js';

const GUILD = DEFAULTS.guildId;
const REMINDER_CHANNEL = textChannelIdFor(GUILD);
const VOTE_URL = 'https://guilds.example/servers/cozy/vote';

let world: World;
let url: string;
let env: Record<string, string>;
/** The bot running now: the world's, or the one started after a restart. */
let bot: BotProcess;
beforeAll(async () => {
  ({ url, ...env } = await receiverEnv({ REMINDER_CHANNEL_ID: REMINDER_CHANNEL, VOTE_URL }));
  world = await startWorld({ env });
  bot = world.bot;
});
afterAll(async () => {
  if (bot && bot !== world?.bot) await bot.stop('SIGKILL');
  await world?.close();
  removeStoreFiles();
});

const mentionsOf = (userId: string) =>
  world.discord.channelMessages(REMINDER_CHANNEL).filter((m) => m.content.includes(`<@${userId}>`));

/** Opts the member in with `/remind on` and returns the answer. */
async function optIn(who: MemberPayload, locale?: string) {
  const handle = asMember(world.discord, who, locale).subcommand('remind', 'on');
  const answer = await handle.waitForMessage();
  expect(handle.callbacks[0]?.data.flags).toBe(MessageFlags.Ephemeral);
  return answer;
}

/**
 * A vote the service will show as running for `ms`, reported by a webhook delivery; returns when the
 * store's schedule has its end as the service tells it (at first the bot assumes 12 hours).
 */
async function votes(who: MemberPayload, ms: number): Promise<number> {
  world.sandbox.setVote(who.user.id, ms);
  const askedAt = Date.now();
  expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, who.user.id))).toBe(200);
  await bot.waitForLog((l) => l.msg === 'vote accepted' && l.userId === who.user.id, 10_000, 'the vote');
  let endsAt: number | undefined;
  await pollUntil(
    async () =>
      (endsAt = await scheduledEnd(env.DATABASE_URL!, who.user.id)) !== undefined && endsAt <= askedAt + ms + 1_000,
    `the end of ${who.user.id}'s vote in the schedule`,
    { timeoutMs: 10_000, everyMs: 25 },
  );
  return endsAt!;
}

/** Waits until the store has acted on these members' vote ends and cleared them: no reminder for them can come any more. */
const endsDone = (...who: MemberPayload[]) =>
  endsHandled(
    env.DATABASE_URL!,
    who.map((m) => m.user.id),
  );

describe('vote reminders (/remind)', () => {
  it('DMs an opted-in member once when the vote runs out, with the vote link; others get nothing', async () => {
    const voter = member();
    const bystander = member();
    const answer = await optIn(voter);
    expect(answer.embeds[0]?.title).toBe('Reminders on');
    expect(textOf(answer)).toContain(`<#${REMINDER_CHANNEL}>`);
    await votes(voter, 2_500);
    await votes(bystander, 2_500);
    const status = await asMember(world.discord, voter).subcommand('remind', 'status').waitForMessage();
    expect(status.embeds[0]?.title).toBe('Reminders are on');
    expect(textOf(status)).toMatch(/Your vote runs out <t:\d+:R>/);

    await world.discord.waitUntil(() => world.discord.directMessages(voter.user.id).length === 1, 10_000, 'the DM');
    const [dm] = world.discord.directMessages(voter.user.id);
    expect(dm!.embeds[0].title).toBe('You can vote again');
    expect(dm!.components[0].components[0]).toMatchObject({ style: 5, url: VOTE_URL, label: 'Vote now' });
    await endsDone(voter, bystander);
    expect(world.discord.directMessages(voter.user.id)).toHaveLength(1);
    expect(world.discord.directMessages(bystander.user.id)).toEqual([]);
    const after = await asMember(world.discord, voter).subcommand('remind', 'status').waitForMessage();
    expect(textOf(after)).toMatch(/Last reminder: <t:\d+:R>, by DM\./);
  });

  it('with DMs closed, mentions the member once in REMINDER_CHANNEL_ID', async () => {
    const voter = member();
    world.discord.closeDms(voter.user.id);
    await optIn(voter);
    await votes(voter, 2_000);
    await world.discord.waitUntil(() => mentionsOf(voter.user.id).length === 1, 10_000, 'the mention');
    await endsDone(voter);
    expect(mentionsOf(voter.user.id)).toHaveLength(1);
    expect(textOf(mentionsOf(voter.user.id)[0]!)).toContain('You can vote again');
    expect(world.discord.directMessages(voter.user.id)).toEqual([]);
  });

  it('sends exactly one when the bot restarts around the expiry: down when it ran out, and again just after', async () => {
    const voter = member();
    await optIn(voter);
    const endsAt = await votes(voter, 3_000);
    await bot.stop('SIGKILL');
    // Down when the vote runs out: the end is a time in the store, and nothing else happens at it.
    await world.discord.waitUntil(() => Date.now() > endsAt, 10_000, 'the end of the vote');
    expect(world.discord.directMessages(voter.user.id)).toEqual([]);
    bot = startBot({ ...botEnvironment(world.discord, world.sandbox), ...env });
    await world.discord.waitUntil(
      () => world.discord.directMessages(voter.user.id).length === 1,
      15_000,
      'the DM after the restart',
    );
    // Killed the moment the reminder went out, and started again: the store knows it was sent.
    await bot.stop('SIGKILL');
    bot = startBot({ ...botEnvironment(world.discord, world.sandbox), ...env });
    await bot.waitForLog((l) => l.msg === 'ready', 15_000, 'the ready log line');
    await endsDone(voter);
    expect(world.discord.directMessages(voter.user.id)).toHaveLength(1);
  });

  it('answers in the member’s language and turns reminders off', async () => {
    const voter = member();
    const on = await optIn(voter, 'de');
    expect(on.embeds[0]?.title).toBe('Erinnerungen an');
    const off = await asMember(world.discord, voter, 'de').subcommand('remind', 'off').waitForMessage();
    expect(off.embeds[0]?.title).toBe('Erinnerungen aus');
    const again = await asMember(world.discord, voter).subcommand('remind', 'off').waitForMessage();
    expect(textOf(again)).toContain('Reminders were not on; nothing changed.');
    await votes(voter, 1_500);
    await endsDone(voter);
    expect(world.discord.directMessages(voter.user.id)).toEqual([]);
  });
});
