import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, startBot, type BotProcess } from '../../tools/bot-process.js';
import { textOf } from '../../tools/conversation.js';
import {
  DEFAULTS,
  member,
  MODERATOR_PERMISSIONS,
  OptionType,
  slashCommand,
  textChannelIdFor,
  type CommandOption,
  type MemberPayload,
  type RoleChange,
} from '../../tools/discord-standin/index.js';
import { deliver, voteEvent } from '../../tools/guilds-webhook.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { botEnvironment, startWorld, type World } from '../../tools/world.js';
import { periodsEnded } from '../support/store-reads.js';

const GUILD = DEFAULTS.guildId;
const AUDIT_CHANNEL = textChannelIdFor(GUILD);
const admin = member({ permissions: MODERATOR_PERMISSIONS });

afterAll(removeStoreFiles);

const role = (value: string): CommandOption => ({ name: 'role', type: OptionType.Role, value });
const votes = (value: number): CommandOption => ({ name: 'votes', type: OptionType.Integer, value });
const period = (value: 'month' | 'all'): CommandOption => ({ name: 'period', type: OptionType.String, value });
const remove = (value: string): CommandOption => ({ name: 'remove', type: OptionType.Role, value });

/** `/setup milestone …` as an admin; the answer's text. */
async function milestone(world: World, options: CommandOption[] = []): Promise<string> {
  const handle = world.discord.sendInteraction(
    slashCommand({
      name: 'setup',
      member: admin,
      options: [{ name: 'milestone', type: OptionType.Subcommand, options }],
    }),
  );
  return textOf(await handle.waitForMessage());
}

const changesOf = (world: World, userId: string, roleId?: string): RoleChange[] =>
  world.discord.roleChanges.filter((c) => c.userId === userId && (roleId === undefined || c.roleId === roleId));

/**
 * One more recorded vote for the member: once the member's running vote period ended (as the store
 * has it), a vote the service shows for `ms` is delivered and the bot's log says it was counted.
 */
async function votesOnce(
  world: World,
  to: { url: string; databaseUrl: string },
  who: MemberPayload,
  ms: number,
  bot = world.bot,
): Promise<void> {
  await periodsEnded(to.databaseUrl, who.user.id);
  world.sandbox.setVote(who.user.id, ms);
  const from = bot.logs.length;
  expect(await deliver(to.url, WEBHOOK_TOKEN, voteEvent(GUILD, who.user.id))).toBe(200);
  const outcome = await bot.waitForLog(
    (l) => VOTE_OUTCOMES.has(String(l.msg)) && l.userId === who.user.id && bot.logs.indexOf(l) >= from,
    10_000,
    `the outcome of ${who.user.id}'s vote delivery`,
  );
  expect(outcome.msg).toBe('vote accepted');
}

/** The bot's lines about a delivery of the member's vote: counted, or a repeat inside its running period. */
const VOTE_OUTCOMES = new Set(['vote accepted', 'vote already counted this period; delivery ignored']);

/**
 * Waits until two more full checks have asked Discord for the roles of the milestones' members (each
 * check asks once, and the next begins only when one is done): a whole check ran after this call.
 */
async function aFullCheckLater(world: World): Promise<void> {
  const asked = world.discord.memberRequests;
  await world.discord.waitUntil(() => world.discord.memberRequests >= asked + 2, 10_000, 'two more full checks');
}

describe('/setup milestone and the roles it gives', () => {
  let world: World;
  /** Where votes are delivered, and the store that counts them. */
  let to: { url: string; databaseUrl: string };
  beforeAll(async () => {
    const { url, ...env } = await receiverEnv({ EXPIRY_CHECK_SECONDS: '1' });
    to = { url, databaseUrl: env.DATABASE_URL! };
    world = await startWorld({ env });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('refuses @everyone, a managed role, a role above the bot and half an order, changing nothing', async () => {
    expect(await milestone(world, [role(GUILD), votes(3)])).toMatch(
      /@everyone is every member of the server and cannot be given or taken/,
    );
    expect(await milestone(world, [role(world.discord.botRoleId), votes(3)])).toMatch(/managed by an integration/);
    const high = world.discord.addRole('Above the bot', { position: 5 });
    expect(await milestone(world, [role(high), votes(3)])).toContain(`<@&${high}> is not below the bot's highest role`);
    expect(await milestone(world, [role(world.discord.voterRoleId), votes(0)])).toMatch(/from 1 to 10,000/);
    expect(await milestone(world, [role(high)])).toMatch(/Give role and votes/);
    expect(await milestone(world)).toMatch(/No vote milestones yet/);
  });

  it('gives the role when a member reaches the votes in the month, with an audit-log reason, not before', async () => {
    const regular = world.discord.addRole('Regular');
    expect(await milestone(world, [role(regular), votes(2), period('month')])).toMatch(
      new RegExp(`Members get <@&${regular}> at 2 recorded votes in one calendar month \\(UTC\\)`),
    );
    expect(await milestone(world)).toContain(`<@&${regular}>: 2 votes in one calendar month (UTC)`);
    const voter = member();
    world.discord.addMembers([voter]);

    await votesOnce(world, to, voter, 1_500);
    // The second vote counts only once the first one's 1.5 s period ended, a full check running every
    // second meanwhile: the role is given after the second vote and not before it.
    await votesOnce(world, to, voter, 60_000);
    await world.discord.waitUntil(() => changesOf(world, voter.user.id).length === 1, 10_000, 'the milestone role');
    const lineOf = (msg: string, nth: number) =>
      world.bot.logs.indexOf(world.bot.logs.filter((l) => l.msg === msg && l.userId === voter.user.id)[nth]!);
    await world.bot.waitForLog((l) => l.msg === 'milestone role given' && l.userId === voter.user.id);
    expect(lineOf('milestone role given', 0)).toBeGreaterThan(lineOf('vote accepted', 1));
    expect(changesOf(world, voter.user.id)[0]).toMatchObject({
      change: 'add',
      roleId: regular,
      reason: expect.stringMatching(/milestone: 2 recorded votes this month/i),
    });
    expect(world.discord.memberRoles(voter.user.id)).toContain(regular);

    // Taken away by hand: given back at the next check, once.
    world.discord.setMemberRoles(voter.user.id, []);
    await world.discord.waitUntil(() => changesOf(world, voter.user.id).length === 2, 5_000, 'the role given back');
    expect(changesOf(world, voter.user.id)[1]).toMatchObject({ change: 'add', roleId: regular });
    await aFullCheckLater(world);
    expect(changesOf(world, voter.user.id)).toHaveLength(2);

    expect(await milestone(world, [remove(regular)])).toMatch(/is no longer given for votes/);
    expect(await milestone(world, [remove(regular)])).toMatch(/is not a milestone role here/);
    expect(await milestone(world)).toMatch(/No vote milestones yet/);
  });

  it('refused with 403: one log line and one audit message with the fix, then resumes by itself once fixed', async () => {
    const star = world.discord.addRole('Star');
    expect(await milestone(world, [role(star), votes(1), period('all')])).toMatch(/Milestone set/);
    const auditBefore = world.discord.channelMessages(AUDIT_CHANNEL).length;
    const voter = member();
    world.discord.addMembers([voter]);
    world.discord.refuseRoleChanges(true);
    try {
      await votesOnce(world, to, voter, 60_000);
      const refused = () =>
        world.bot.logs.filter((l) => String(l.msg).startsWith('Discord refused to change a milestone'));
      await world.discord.waitUntil(() => refused().length === 1, 10_000, 'the refusal log line');
      // Two more checks (one a second) go by: each tries one change, none says it again.
      const tried = () => world.discord.requests.filter((r) => r.path.endsWith(`/roles/${star}`)).length;
      await world.discord.waitUntil(() => tried() >= 3, 10_000, 'two more checks trying the change');
      expect(refused()).toHaveLength(1);
      expect(refused()[0]!.level).toBe(50);
      const audit = world.discord.channelMessages(AUDIT_CHANNEL).slice(auditBefore);
      expect(audit).toHaveLength(1);
      expect(audit[0]!.content).toContain(`<@&${star}>`);
      expect(audit[0]!.content).toContain('Manage Roles');
      expect(await milestone(world)).toMatch(/paused: the bot lacks Manage Roles/);
      expect(changesOf(world, voter.user.id, star)).toEqual([]);
    } finally {
      world.discord.refuseRoleChanges(false);
    }
    await world.discord.waitUntil(() => changesOf(world, voter.user.id, star).length === 1, 5_000, 'the role');
    await world.bot.waitForLog((l) => l.msg === 'milestone role changes work again', 5_000, 'the resume line');
    expect(await milestone(world)).not.toMatch(/paused/);
    expect(await milestone(world, [remove(star)])).toMatch(/is no longer given/);
  });

  it('pauses a milestone whose role was deleted, tells the audit channel once, and lists it as paused', async () => {
    const fan = world.discord.addRole('Fan');
    // A second milestone the member also holds: its checks ask Discord for the member each second.
    const supporter = world.discord.addRole('Supporter');
    expect(await milestone(world, [role(fan), votes(1), period('all')])).toMatch(/at 1 recorded vote in all\./);
    expect(await milestone(world, [role(supporter), votes(1), period('all')])).toMatch(/Milestone set/);
    const voter = member();
    world.discord.addMembers([voter]);
    await votesOnce(world, to, voter, 60_000);
    await world.discord.waitUntil(
      () =>
        changesOf(world, voter.user.id, fan).length === 1 && changesOf(world, voter.user.id, supporter).length === 1,
      10_000,
      'the roles',
    );

    const auditBefore = world.discord.channelMessages(AUDIT_CHANNEL).length;
    world.discord.deleteRole(fan);
    const told = () =>
      world.discord
        .channelMessages(AUDIT_CHANNEL)
        .slice(auditBefore)
        .filter((m) => m.content.includes(`<@&${fan}>`));
    await world.discord.waitUntil(() => told().length === 1, 10_000, 'the audit message');
    expect(told()[0]!.content).toMatch(/no longer exists/);
    // A whole check later: still said once, and nothing asked of Discord for the role.
    await aFullCheckLater(world);
    expect(told()).toHaveLength(1);
    expect(world.bot.logs.filter((l) => String(l.msg).startsWith('Milestone role no longer exists'))).toHaveLength(1);
    expect(changesOf(world, voter.user.id, fan)).toHaveLength(1);
    expect(await milestone(world)).toMatch(/paused: the role no longer exists/);
    expect(changesOf(world, voter.user.id, supporter)).toHaveLength(1);
  });
});

describe('monthly milestone roles at the turn of the month (UTC)', () => {
  it("are taken back when the month turns, paced under Discord's role limit, with a reason; all-time ones stay", async () => {
    const now = new Date();
    const turn = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    /** The bot's clock from its start on (test/support/shifted-clock.js); its timers are real. */
    const clockAt = (start: number) => ({
      NODE_OPTIONS: `--import=${pathToFileURL(path.join(ROOT, 'test/support/shifted-clock.js')).href}`,
      SHIFTED_CLOCK_START: new Date(start).toISOString(),
    });
    // The roles are given by a bot whose clock is an hour before the month ends; then the bot starts
    // again on the same store with its clock 8 s before the turn. The check interval stays long, so
    // only the month's own timer can take the roles back.
    const { url, ...env } = await receiverEnv();
    const to = { url, databaseUrl: env.DATABASE_URL! };
    const world = await startWorld({ env: { ...env, ...clockAt(turn - 3_600_000) } });
    let bot: BotProcess = world.bot;
    try {
      const monthly = world.discord.addRole('Voter of the month');
      const loyal = world.discord.addRole('Loyal');
      expect(await milestone(world, [role(monthly), votes(1), period('month')])).toMatch(/Milestone set/);
      expect(await milestone(world, [role(loyal), votes(1), period('all')])).toMatch(/Milestone set/);
      // More members than Discord's 10 role changes a second (the stand-in answers 429 past them).
      const voters = Array.from({ length: 12 }, () => member());
      world.discord.addMembers(voters);
      await Promise.all(voters.map((voter) => votesOnce(world, to, voter, 10 * 60_000)));
      const changes = (roleId: string, change: RoleChange['change']) =>
        world.discord.roleChanges.filter((c) => c.roleId === roleId && c.change === change);
      await world.discord.waitUntil(
        () => changes(monthly, 'add').length + changes(loyal, 'add').length === 24,
        15_000,
        'every role',
      );
      const given = world.bot.logs.filter((l) => l.msg === 'milestone role given');
      expect(given.every((l) => Date.parse(String(l.time)) < turn)).toBe(true);

      await world.bot.stop('SIGKILL');
      const limitedBefore = world.discord.rateLimitedRequests;
      bot = startBot({ ...botEnvironment(world.discord, world.sandbox), ...env, ...clockAt(turn - 8_000) });
      await world.discord.waitUntil(
        () => changes(monthly, 'remove').length === 12,
        30_000,
        'the monthly roles taken back',
      );
      const taken = changes(monthly, 'remove');
      expect(taken.map((c) => c.userId).sort()).toEqual(voters.map((v) => v.user.id).sort());
      expect(taken[0]).toMatchObject({ reason: expect.stringMatching(/month \(UTC\) ended/) });
      // Twelve changes under a limit of ten a second: spread over the next window, none refused.
      expect(taken.at(-1)!.at - taken[0]!.at).toBeGreaterThan(500);
      expect(world.discord.rateLimitedRequests).toBe(limitedBefore);
      const first = await bot.waitForLog((l) => l.msg === 'milestone role taken back', 5_000, 'the log line');
      // By the bot's own clock, the roles went after the turn, not at a check that happened to come by.
      expect(Date.parse(String(first.time))).toBeGreaterThanOrEqual(turn);
      for (const voter of voters) expect(world.discord.memberRoles(voter.user.id)).toEqual([loyal]);
      // The new month has no votes of theirs yet: the role is not given again; the all-time one stays.
      // A member voting now wakes a pass after the one that took the roles back, and gets both roles
      // from it: by then a grant to the others would have been made too.
      const newcomer = member();
      world.discord.addMembers([newcomer]);
      await votesOnce(world, to, newcomer, 10 * 60_000, bot);
      await world.discord.waitUntil(
        () => changesOf(world, newcomer.user.id).length === 2,
        10_000,
        "the newcomer's two roles",
      );
      expect(
        changes(monthly, 'add')
          .map((c) => c.userId)
          .sort(),
      ).toEqual([...voters.map((v) => v.user.id), newcomer.user.id].sort());
      expect(changes(loyal, 'remove')).toEqual([]);
    } finally {
      if (bot !== world.bot) await bot.stop('SIGKILL');
      await world.close();
    }
  }, 60_000);
});
