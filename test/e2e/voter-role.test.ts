import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ABSENT_SAMPLE } from '../../src/roles/voter-role.js';
import { startBot, type BotProcess } from '../../tools/bot-process.js';
import { asMember } from '../../tools/conversation.js';
import {
  DEFAULTS,
  member,
  textChannelIdFor,
  voterRoleIdFor,
  type RoleChange,
} from '../../tools/discord-standin/index.js';
import { deliver, voteEvent } from '../../tools/guilds-webhook.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { botEnvironment, startWorld, type World } from '../../tools/world.js';
import { pollUntil } from '../support/poll-until.js';
import { scheduledEnd } from '../support/store-reads.js';

const GUILD = DEFAULTS.guildId;
const AUDIT_CHANNEL = textChannelIdFor(GUILD);

afterAll(removeStoreFiles);

const roleEnv = (voterRoleId: string) => receiverEnv({ VOTER_ROLE_ID: voterRoleId });

const changesOf = (world: World, userId: string): RoleChange[] =>
  world.discord.roleChanges.filter((c) => c.userId === userId);
const roleRequests = (world: World) => world.discord.requests.filter((r) => /\/members\/\d+\/roles\/\d+$/.test(r.path));

const polls = (bot: BotProcess) => bot.logs.filter((l) => l.msg === 'vote mirror updated').length;
/** Waits for two more polls: the first of them began after this call, and the second only once it was done. */
const aPollLater = async (world: World, bot: BotProcess) => {
  const seen = polls(bot);
  await world.discord.waitUntil(() => polls(bot) >= seen + 2, 10_000, 'two more polls');
};

describe('one bot polling every second', () => {
  let world: World;
  let env: Record<string, string>;
  /** The bot running now: the world's, or the one started after a restart. */
  let bot: BotProcess;
  const strangers = Array.from({ length: 5 }, () => member().user.id);
  const voter = member();
  const polled = member();
  beforeAll(async () => {
    const { url: _url, ...settings } = await roleEnv(voterRoleIdFor(GUILD));
    env = settings;
    world = await startWorld({ env: { ...env, VOTE_POLL_SECONDS: '1' }, ready: false });
    bot = world.bot;
    // Before the bot's first poll: members who vote, and voters who are not in the server.
    world.discord.addMembers([voter, polled]);
    world.sandbox.setVote(voter.user.id, 10 * 60_000);
    // Its 3 s run from the poll that first lists it, however long the bot took to start.
    world.sandbox.setVoteFromFirstRead(polled.user.id, 3_000);
    for (const id of strangers) world.sandbox.setVote(id, 10 * 60_000);
    await bot.waitForLog((l) => l.msg === 'ready', 15_000, 'the ready log line');
  });
  afterAll(async () => {
    if (bot && bot !== world?.bot) await bot.stop('SIGKILL');
    await world?.close();
  });

  describe('the voter role with polling on', () => {
    it('is given to voters a poll finds and removed when their votes run out', async () => {
      const changes = () => world.discord.roleChanges.filter((c) => c.userId === polled.user.id);
      await world.discord.waitUntil(() => changes().length === 1, 10_000, 'the role PUT');
      await world.discord.waitUntil(() => changes().length === 2, 10_000, 'the role DELETE');
      expect(changes().map((c) => c.change)).toEqual(['add', 'remove']);
      // Later polls no longer list the vote: the role is not given again.
      await aPollLater(world, bot);
      expect(changes()).toHaveLength(2);
    });
  });

  describe('listed voters who are not in the server', () => {
    it('are one summary line at start, not a line each, on the first poll and after a restart', async () => {
      const summaryOf = (b: BotProcess) =>
        b.waitForLog((l) => /listed voters? (is|are) not in the server$/.test(String(l.msg)), 15_000, 'the summary');
      // The sandbox lists a few voters of its own who are not members either.
      const first = await summaryOf(bot);
      const absent = Number(first.absent);
      expect(first).toMatchObject({ msg: `${absent} listed voters are not in the server`, level: 30, guildId: GUILD });
      expect(absent).toBeGreaterThanOrEqual(strangers.length);
      // How many of its own the sandbox lists depends on the day; the line names at most ABSENT_SAMPLE.
      expect(first.sample).toHaveLength(Math.min(absent, ABSENT_SAMPLE));
      if (absent <= ABSENT_SAMPLE) expect(first.sample).toEqual(expect.arrayContaining(strangers));
      expect(first.sample).not.toContain(voter.user.id);

      await bot.stop('SIGKILL');
      bot = startBot({ ...botEnvironment(world.discord, world.sandbox), ...env, VOTE_POLL_SECONDS: '1' });
      const again = await summaryOf(bot);
      // Every running vote the store holds is offered at once: one line, however many.
      expect(Number(again.absent)).toBeGreaterThanOrEqual(strangers.length);
      expect(again.msg).toBe(`${String(again.absent)} listed voters are not in the server`);
      // One more stranger votes: a later poll finds only that one, in a line of its own, and any
      // other finding since the start would be in that line or a line before it.
      const latecomer = member().user.id;
      world.sandbox.setVote(latecomer, 10 * 60_000);
      const late = await bot.waitForLog(
        (l) =>
          String(l.msg).endsWith('not in the server') &&
          (l.sample as string[] | undefined)?.includes(latecomer) === true,
        10_000,
        "the latecomer's line",
      );
      expect(late).toMatchObject({ msg: '1 listed voter is not in the server', absent: 1, sample: [latecomer] });
      const perVoter = bot.logs.filter((l) => strangers.includes(String(l.userId)));
      expect(perVoter).toEqual([]);
      expect(bot.logs.filter((l) => String(l.msg).endsWith('not in the server'))).toEqual([again, late]);
    }, 30_000);
  });
});

describe('the voter role (VOTER_ROLE_ID)', () => {
  let world: World;
  let url: string;
  let env: Record<string, string>;
  /** The bot running now: the world's, or the one started after a restart. */
  let bot: BotProcess;
  beforeAll(async () => {
    ({ url, ...env } = await roleEnv(voterRoleIdFor(GUILD)));
    world = await startWorld({ env });
    bot = world.bot;
  });
  afterAll(async () => {
    if (bot && bot !== world?.bot) await bot.stop('SIGKILL');
    await world?.close();
  });

  it('is given on a vote webhook, with a reason, and removed when the vote runs out', async () => {
    const voter = member();
    world.discord.addMembers([voter]);
    world.sandbox.setVote(voter.user.id, 2_500);
    expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voter.user.id))).toBe(200);
    await world.discord.waitUntil(() => changesOf(world, voter.user.id).length === 1, 10_000, 'the role PUT');
    expect(changesOf(world, voter.user.id)[0]).toMatchObject({
      change: 'add',
      roleId: world.discord.voterRoleId,
      reason: expect.stringMatching(/vote/i),
    });
    await world.discord.waitUntil(() => changesOf(world, voter.user.id).length === 2, 10_000, 'the role DELETE');
    const [added, removed] = changesOf(world, voter.user.id);
    expect(removed).toMatchObject({ change: 'remove', roleId: world.discord.voterRoleId, reason: expect.any(String) });
    // Not before the service's expiry (2.5 s after it was set), and not long after it either.
    expect(removed!.at - added!.at).toBeGreaterThan(1_000);
  });

  it('still removes the role when the bot was down at the moment the vote ran out', async () => {
    const voter = member();
    world.discord.addMembers([voter]);
    world.sandbox.setVote(voter.user.id, 2_000);
    expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voter.user.id))).toBe(200);
    await world.discord.waitUntil(() => changesOf(world, voter.user.id).length === 1, 10_000, 'the role PUT');
    await bot.waitForLog(
      (l) => l.msg === 'voter role given' && l.userId === voter.user.id,
      5_000,
      'the grant log line',
    );
    // The refresh has moved the end to the service's expiry (from the 12 hours assumed at the delivery).
    let endsAt: number | undefined;
    await pollUntil(
      async () =>
        (endsAt = await scheduledEnd(env.DATABASE_URL!, voter.user.id)) !== undefined && endsAt < Date.now() + 60_000,
      "the service's end in the schedule",
      { timeoutMs: 5_000, everyMs: 25 },
    );
    await bot.stop('SIGKILL');
    // Down when the vote runs out: the end is a time in the store, and nothing else happens at it.
    await world.discord.waitUntil(() => Date.now() > endsAt!, 5_000, 'the end of the vote');
    expect(changesOf(world, voter.user.id)).toHaveLength(1);
    bot = startBot({ ...botEnvironment(world.discord, world.sandbox), ...env });
    await world.discord.waitUntil(
      () => changesOf(world, voter.user.id).length === 2,
      15_000,
      'the role DELETE after the restart',
    );
    expect(changesOf(world, voter.user.id)[1]).toMatchObject({ change: 'remove', roleId: world.discord.voterRoleId });
  });

  it('is given when a /vote answer shows a vote no webhook reported, and removed when it runs out', async () => {
    const voter = member();
    world.discord.addMembers([voter]);
    world.sandbox.setVote(voter.user.id, 2_000);
    await asMember(world.discord, voter).command('vote').waitForMessage();
    await world.discord.waitUntil(
      () => changesOf(world, voter.user.id).length === 2,
      10_000,
      'the role PUT and DELETE',
    );
    expect(changesOf(world, voter.user.id).map((c) => c.change)).toEqual(['add', 'remove']);
  });

  it('skips a member who left the server (Unknown Member) and goes on with the others', async () => {
    const gone = member();
    const stays = member();
    world.discord.addMembers([stays]);
    expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, gone.user.id))).toBe(200);
    expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, stays.user.id))).toBe(200);
    await world.discord.waitUntil(() => changesOf(world, stays.user.id).length === 1, 10_000, 'the role PUT');
    const summary = await bot.waitForLog(
      (l) => l.msg === '1 listed voter is not in the server' && (l.sample as string[]).includes(gone.user.id),
      5_000,
      'the summary line',
    );
    expect(summary).toMatchObject({ level: 30, guildId: GUILD, absent: 1 });
    // The per-voter line is at debug: a start with many such voters writes one line, not one each.
    expect(bot.logs.some((l) => l.msg === 'voter role: member is no longer in the server; skipped')).toBe(false);
    expect(changesOf(world, gone.user.id)).toEqual([]);
  });

  it('refused with 403: one clear log line and one audit message with the fix, no retry storm', async () => {
    world.discord.refuseRoleChanges(true);
    try {
      const voters = [member(), member(), member()];
      world.discord.addMembers(voters);
      const requestsBefore = roleRequests(world).length;
      const auditBefore = world.discord.channelMessages(AUDIT_CHANNEL).length;
      for (const voter of voters) expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voter.user.id))).toBe(200);
      const refused = () =>
        bot.logs.filter((l) => String(l.msg).startsWith('Discord refused to change the voter role'));
      await world.discord.waitUntil(() => refused().length === 1, 10_000, 'the refusal log line');
      await world.discord.waitUntil(
        () => world.discord.channelMessages(AUDIT_CHANNEL).length === auditBefore + 1,
        10_000,
        'the audit message',
      );
      // A storm is requests over time, so no event can say there is none: a request per vote would be out within 1.5 s.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(refused()).toHaveLength(1);
      expect(refused()[0]!.msg).toContain('Manage Roles');
      expect(refused()[0]!.level).toBe(50);
      expect(roleRequests(world).length - requestsBefore).toBe(1);
      const audit = world.discord.channelMessages(AUDIT_CHANNEL).slice(auditBefore);
      expect(audit).toHaveLength(1);
      expect(audit[0]!.content).toContain(`<@&${world.discord.voterRoleId}>`);
      expect(audit[0]!.content).toContain('Manage Roles');
      for (const voter of voters) expect(changesOf(world, voter.user.id)).toEqual([]);
    } finally {
      world.discord.refuseRoleChanges(false);
    }
  });
});

/**
 * Waits until two more checks have asked Discord for the running voters' roles (each check asks once,
 * and the next begins only when one is done): a whole check ran after this call.
 */
async function aCheckLater(world: World): Promise<void> {
  const asked = world.discord.memberRequests;
  await world.discord.waitUntil(() => world.discord.memberRequests >= asked + 2, 10_000, 'two more checks');
}

describe('the voter role taken from a voter by hand', () => {
  it('is given back at the next check while the vote runs, once', async () => {
    const { url: deliveries, ...settings } = await roleEnv(voterRoleIdFor(GUILD));
    const checked = await startWorld({ env: { ...settings, EXPIRY_CHECK_SECONDS: '1' } });
    try {
      const voter = member();
      checked.discord.addMembers([voter]);
      checked.sandbox.setVote(voter.user.id, 60_000);
      expect(await deliver(deliveries, WEBHOOK_TOKEN, voteEvent(GUILD, voter.user.id))).toBe(200);
      await checked.discord.waitUntil(() => changesOf(checked, voter.user.id).length === 1, 10_000, 'the role PUT');
      // A whole check (one a second, asking Discord for the member's roles) passes with the role held: nothing to mend.
      await aCheckLater(checked);
      expect(changesOf(checked, voter.user.id)).toHaveLength(1);

      checked.discord.setMemberRoles(voter.user.id, []);
      await checked.discord.waitUntil(
        () => changesOf(checked, voter.user.id).length === 2,
        5_000,
        'the role given back',
      );
      expect(changesOf(checked, voter.user.id)[1]).toMatchObject({
        change: 'add',
        reason: expect.stringMatching(/vote/i),
      });
      expect(checked.discord.memberRoles(voter.user.id)).toEqual([checked.discord.voterRoleId]);
      await aCheckLater(checked);
      expect(changesOf(checked, voter.user.id)).toHaveLength(2);
    } finally {
      await checked.close();
    }
  });
});
