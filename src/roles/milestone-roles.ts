import type { Guild, REST } from 'discord.js';
import { roleMention } from '../core/discord-text.js';
import { IDS_PER_REQUEST } from '../bot/gateway-members.js';
import { textBody, type Poster } from '../bot/poster.js';
import { tellAuditChannel } from '../bot/tell-audit-channel.js';
import { roleProblemKinds } from '../guild-rules/role-permissions.js';
import type { Translator } from '../i18n/index.js';
import { monthKey, monthOf, monthRange } from '../leaderboard/month.js';
import type { Logger } from '../core/log.js';
import { botInGuild } from '../guild-rules/guild-facts.js';
import type { Milestone, MilestoneStore, VoteLedger } from '../store/index.js';
import { DrainLoop } from '../work/drain-loop.js';
import type { MemberRolesLookup } from './member-roles.js';
import { roleChanges, type RoleChange, type RoleChangeOutcome, type RoleChanges } from './role-changes.js';

type MilestoneRolesStore = Pick<
  MilestoneStore,
  'milestones' | 'milestoneGrants' | 'recordMilestoneGrant' | 'dropMilestoneGrant' | 'parkMilestone' | 'unparkMilestone'
> &
  Pick<VoteLedger, 'votesBetween'>;

export interface MilestoneRolesOptions {
  /** Role changes go straight to Discord's REST API, queued by discord.js per Discord's buckets. */
  rest: REST;
  poster: Poster;
  store: MilestoneRolesStore;
  guildId: string;
  /** The server as the gateway has it: its roles and the bot's, to see whether a role can be given. */
  guild: () => Guild | null;
  logger: Logger;
  now: () => number;
  auditChannelId: string | undefined;
  i18n: () => Translator;
  memberRoles: MemberRolesLookup;
  /** How often every holder is checked against Discord (hand edits) and a parked role tried again. */
  checkMs: number;
  /** The process's one timer that checks every server with milestones each checkMs (milestone-checks.ts). */
  checks: MilestoneCheckPass;
}

/** The process's periodic check of every server's milestone roles: one timer, not one per server. */
export interface MilestoneCheckPass {
  join(roles: MilestoneRoles): void;
  leave(roles: MilestoneRoles): void;
}

type Outcome = RoleChangeOutcome['kind'];

const grantReason = (m: Milestone) =>
  `Vote milestone: ${m.votes} recorded vote${m.votes === 1 ? '' : 's'} ${m.period === 'month' ? 'this month (UTC)' : 'in all'}`;
const REMOVE_REASON = 'Vote milestone: the month (UTC) ended; monthly milestone role taken back';

/** The grant's month for a milestone: the calendar month (UTC) for a monthly one, '' for all time. */
const grantMonth = (m: Milestone, month: string) => (m.period === 'month' ? month : '');

/**
 * Roles for members who reach a number of recorded votes in the month (UTC) or in all. A pass gives
 * what is due and takes monthly roles of a month gone by; it runs when a vote is recorded, at the
 * month's turn, and every checkMs, when it also gives back a role taken by hand and tries a parked
 * role again. Role changes go one at a time through discord.js's rate-limited queue.
 */
export class MilestoneRoles {
  /** Made at the first pass: most servers have no milestones and never need one. */
  #loopMade: DrainLoop | undefined;
  #stopped = false;
  readonly #roles: RoleChanges;
  /** The next pass checks every holder against Discord, not only the members with no grant yet. */
  #fullDue = true;
  /** Members the gateway did not know (left the server): not asked again before this time (made at the first). */
  #absent: Map<string, number> | undefined;
  /** Roles refused in the pass running: one refused request per role and pass, not one per member (made at the first). */
  #refusedInPass: Set<string> | undefined;
  /** The server's milestones, as last read: every accepted vote wakes a pass, and most servers have none. */
  #milestones: Milestone[] | undefined;
  /** Checks asked for so far: a list read before the latest one is stale. */
  #checks = 0;

  constructor(private readonly options: MilestoneRolesOptions) {
    this.#roles = roleChanges(options.rest, options.guildId);
  }

  get #loop(): DrainLoop {
    return (this.#loopMade ??= new DrainLoop(() => this.#pass(), {
      warn: { logger: this.options.logger, line: 'milestone roles: pass failed; trying again' },
    }));
  }

  get guildId(): string {
    return this.options.guildId;
  }

  /** False once the server's milestones are known to be none: the periodic check skips it. */
  get hasMilestones(): boolean {
    return this.#milestones === undefined || this.#milestones.length > 0;
  }

  /**
   * Starts with a full pass; `none` (the process read that the server has no milestones) skips it
   * and the store read a pass would make. Each periodic check is a full pass too.
   */
  start(none = false): void {
    if (none) this.#milestones = [];
    else this.#loop.wake();
    this.options.checks.join(this);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.options.checks.leave(this);
    await this.#loopMade?.stop();
  }

  /** A vote was recorded: give what it made due (nothing, in a server known to have no milestones). */
  wake(): void {
    if (this.#stopped || this.#milestones?.length === 0) return;
    this.#loop.wake();
  }

  /** Every holder against Discord, parked roles tried again (and milestones changed by /setup). */
  check(): void {
    this.#fullDue = true;
    this.#milestones = undefined;
    this.#checks += 1;
    if (!this.#stopped) this.#loop.wake();
  }

  async #pass(): Promise<void> {
    const full = this.#fullDue;
    this.#fullDue = false;
    // The turn after the month this pass worked in: a pass that ends past it wakes the next one at once
    // (taken from the end, the wake-up was a month away and the roles stayed).
    const { year, month } = monthOf(new Date(this.options.now()));
    let any: boolean;
    try {
      any = await this.#work(full);
    } catch (err) {
      // The retry after the backoff does what this pass did not finish.
      if (full) this.#fullDue = true;
      throw err;
    }
    if (any) this.#loop.wakeAt(Date.UTC(year, month, 1), this.options.now());
  }

  /** False when the server has no milestones (nothing to wake for at the month's turn). */
  async #work(full: boolean): Promise<boolean> {
    const { store, now } = this.options;
    const at = now();
    const month = monthKey(monthOf(new Date(at)));
    if (full) this.#absent = undefined;
    this.#refusedInPass = undefined;
    // Read again on each check (a /setup change, and every checkMs); a pass a vote wakes uses this list.
    let milestones = this.#milestones;
    if (milestones === undefined) {
      const asked = this.#checks;
      milestones = await store.milestones();
      // A check while this read was out may have changed them: that read is not kept (the pass the
      // check woke reads again).
      if (asked === this.#checks) this.#milestones = milestones;
    }
    // Grants go with their milestone (removeMilestone): a server with none has nothing to do.
    if (milestones.length === 0) return false;
    const byRole = new Map(milestones.map((m) => [m.roleId, m]));
    const held = new Set<string>();
    for (const grant of await store.milestoneGrants()) {
      const milestone = byRole.get(grant.roleId);
      if (milestone && grant.month === grantMonth(milestone, month)) {
        held.add(`${grant.roleId}:${grant.userId}`);
        continue;
      }
      // A month gone by (or a milestone changed from monthly to all time and back).
      if (!milestone || !(await this.#usable(milestone, full))) continue;
      const outcome = await this.#change('remove', milestone, grant.userId);
      if (outcome !== 'refused') await store.dropMilestoneGrant(grant.roleId, grant.userId, grant.month);
    }
    for (const milestone of milestones) {
      if (!(await this.#usable(milestone, full))) continue;
      const range =
        milestone.period === 'month' ? monthRange(monthOf(new Date(at))) : { from: 0, to: Number.MAX_SAFE_INTEGER };
      const reached = (await store.votesBetween(range.from, range.to))
        .filter((counted) => counted.votes >= milestone.votes)
        .map((counted) => counted.userId);
      const due = full
        ? reached
        : reached.filter((id) => !held.has(`${milestone.roleId}:${id}`) && !((this.#absent?.get(id) ?? 0) > at));
      await this.#give(milestone, due, grantMonth(milestone, month), held);
    }
    return true;
  }

  /** Gives the role to those of `userIds` who lack it (asked of the gateway), and records each grant. */
  async #give(milestone: Milestone, userIds: readonly string[], month: string, held: Set<string>): Promise<void> {
    const { store, memberRoles, now, checkMs, logger } = this.options;
    for (let i = 0; i < userIds.length; i += IDS_PER_REQUEST) {
      const slice = userIds.slice(i, i + IDS_PER_REQUEST);
      const roles = await memberRoles(slice);
      for (const userId of slice) {
        const has = roles.get(userId);
        if (has === undefined) {
          (this.#absent ??= new Map()).set(userId, now() + checkMs);
          continue;
        }
        const granted = held.has(`${milestone.roleId}:${userId}`);
        if (!has.includes(milestone.roleId)) {
          const outcome = await this.#change('grant', milestone, userId);
          if (outcome === 'refused') return;
          if (outcome === 'absent') continue;
          if (granted) logger.info({ userId, roleId: milestone.roleId }, 'milestone role given back');
        }
        if (granted) continue;
        await store.recordMilestoneGrant({ roleId: milestone.roleId, userId, month, grantedAt: now() });
        held.add(`${milestone.roleId}:${userId}`);
      }
    }
  }

  /**
   * Whether the role can be changed now. What the gateway shows (role deleted, above the bot, no
   * Manage Roles) parks it without a request; a parked role that looks fixed is tried on a full pass.
   */
  async #usable(milestone: Milestone, full: boolean): Promise<boolean> {
    if (this.#refusedInPass?.has(milestone.roleId)) return false;
    const guild = this.options.guild();
    if (!guild) throw new Error('the server is not available on the gateway');
    const problems = roleProblemKinds({ ...botInGuild(guild), roleId: milestone.roleId });
    if (problems.length > 0) {
      await this.#park(milestone, problems.includes('missing') ? 'unknown' : 'access');
      return false;
    }
    return milestone.parked === null || full;
  }

  async #change(change: RoleChange, milestone: Milestone, userId: string): Promise<Outcome> {
    const { store, logger } = this.options;
    const { roleId } = milestone;
    // A transient failure is thrown: the pass is tried again after the loop's backoff.
    const outcome =
      change === 'grant'
        ? await this.#roles.grant(userId, roleId, grantReason(milestone))
        : await this.#roles.remove(userId, roleId, REMOVE_REASON);
    if (outcome.kind === 'absent') {
      logger.debug({ userId, change, roleId }, 'milestone role: member is no longer in the server');
      return 'absent';
    }
    if (outcome.kind === 'refused') {
      await this.#park(milestone, outcome.refusal.reason === 'unknown' ? 'unknown' : 'access');
      return 'refused';
    }
    if (milestone.parked !== null) {
      milestone.parked = null;
      if (await store.unparkMilestone(roleId)) logger.info({ roleId }, 'milestone role changes work again');
    }
    logger.info(
      { userId, change, roleId, votes: milestone.votes, period: milestone.period },
      change === 'grant' ? 'milestone role given' : 'milestone role taken back',
    );
    return 'done';
  }

  /** Said once per refusal (the store remembers it across restarts), in the log and the audit channel, with the fix. */
  async #park(milestone: Milestone, reason: 'access' | 'unknown'): Promise<void> {
    (this.#refusedInPass ??= new Set()).add(milestone.roleId);
    if (milestone.parked !== null) return;
    milestone.parked = reason;
    const { store, logger, auditChannelId, poster, i18n } = this.options;
    const { roleId } = milestone;
    if (!(await store.parkMilestone(roleId, reason))) return;
    logger.error(
      { roleId, reason, votes: milestone.votes, period: milestone.period },
      reason === 'unknown'
        ? 'Milestone role no longer exists; its milestone is paused. Fix: /setup milestone with another role, or remove it.'
        : "Discord refused to change a milestone role (403): the bot lacks Manage Roles, or the role sits above the bot's highest role. " +
            "Fix: Server Settings → Roles: give the bot's role Manage Roles and drag it above the role. " +
            'Milestone role changes resume by themselves once fixed.',
    );
    const key = reason === 'unknown' ? 'milestone.roleGone' : 'milestone.blocked';
    await tellAuditChannel(poster, {
      channelId: auditChannelId,
      body: textBody(i18n().t(key, { role: roleMention(roleId) })),
      logger,
      failedLine: 'could not tell the audit channel that milestone roles are refused',
    });
  }
}
