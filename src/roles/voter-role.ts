import type { REST } from 'discord.js';
import { IDS_PER_REQUEST } from '../bot/gateway-members.js';
import { textBody, type Poster } from '../bot/poster.js';
import { tellAuditChannel } from '../bot/tell-audit-channel.js';
import type { Translator } from '../i18n/index.js';
import type { Logger } from '../core/log.js';
import type { ExpiryConsumer, RunningVote } from '../schedule/expiry-consumers.js';
import type { MemberRolesLookup } from './member-roles.js';
import { roleChanges, type RoleChange, type RoleChangeOutcome, type RoleChanges } from './role-changes.js';

export interface VoterRoleOptions {
  /** Role changes go straight to Discord's REST API; they are not posts. */
  rest: REST;
  /** Tells the audit channel when Discord refuses role changes. */
  poster: Poster;
  guildId: string;
  roleId: string;
  logger: Logger;
  now: () => number;
  /** The audit channel (REVIEW_LOG_CHANNEL_ID), told once when Discord refuses role changes. */
  auditChannelId: string | undefined;
  i18n: () => Translator;
  /** While Discord refuses, one call in this long finds out whether the fix was made. */
  probeMs: number;
  memberRoles?: MemberRolesLookup;
  /**
   * When the member's vote ends as the store's schedule has it now (undefined: none scheduled).
   * Asked right before each grant: a lookup or a queue may have taken longer than the vote had left.
   */
  runningUntil: (userId: string) => Promise<number | undefined>;
}

/** Not-member findings this close together share one summary line. */
const ABSENT_SUMMARY_MS = 1_000;
/** Enough ids in the summary to look one up, few enough to keep the line short. */
export const ABSENT_SAMPLE = 10;

const GRANT_REASON = 'Voted for the server: voter role while the vote lasts';
const REMOVE_REASON = 'Vote ran out: voter role removed';

/** Refused with 403: the entry stays and is tried again later. */
class RoleChangesRefused extends Error {
  constructor() {
    super('Discord refuses role changes (Manage Roles or role position)');
  }
}

/** VOTER_ROLE_ID: held by a member while their vote runs. */
export class VoterRole implements ExpiryConsumer {
  readonly name = 'voter role';
  /** While set, calls are not made until then (one probe per probeMs), so a refusal is no retry storm. */
  #refusedUntil: number | undefined;
  #missedGrants = false;
  /**
   * The role is gone (Discord answered 404): no change is sent until an admin sets a role, which
   * remakes the server's runtime, and with it this worker.
   */
  #gone = false;
  /**
   * One change per member at a time, in the order asked: a removal waits for a grant in flight to be
   * answered, so Discord never sees a grant land after the removal that should have followed it.
   */
  readonly #chains = new Map<string, Promise<unknown>>();
  /** Listed voters found not to be members since the last summary line. */
  #absent: string[] = [];
  #absentTimer: NodeJS.Timeout | undefined;

  readonly #roles: RoleChanges;

  constructor(private readonly options: VoterRoleOptions) {
    this.#roles = roleChanges(options.rest, options.guildId);
  }

  async onActive(userId: string): Promise<void> {
    await this.#inTurn(userId, () => this.#grantIfRunning(userId));
  }

  async onExpired(userId: string): Promise<void> {
    await this.#inTurn(userId, () => this.#change('remove', userId));
  }

  /**
   * Every running vote (at start, or after grants were skipped): only the voters the gateway shows
   * without the role get it, so a restart sends no role change for what did not change.
   */
  async onAllActive(running: readonly RunningVote[]): Promise<void> {
    const { memberRoles, logger } = this.options;
    if (memberRoles === undefined) {
      for (const { userId } of running) await this.onActive(userId);
      return;
    }
    const { given, absent } = await this.#grantMissing(running.map((vote) => vote.userId));
    logger.info({ running: running.length, given }, 'voter role checked against Discord');
    for (const userId of absent) this.#noteAbsent(userId);
  }

  /** After a refusal, each reconcile offers every running vote again until a change goes through. */
  wantsFullReconcile(): boolean {
    const refusing = this.#refusedUntil !== undefined && this.options.now() < this.#refusedUntil;
    const missed = this.#missedGrants && !refusing;
    if (missed) this.#missedGrants = false;
    return missed;
  }

  /**
   * A voter whose role was taken by hand gets it back. (A role given by hand to a member who has not
   * voted stays: finding its holders would need the privileged members intent.)
   */
  async heal(running: readonly string[]): Promise<void> {
    const { given } = await this.#grantMissing(running);
    if (given > 0) this.options.logger.info({ running: running.length, given }, 'voter role given back');
  }

  /**
   * Asks the gateway who of `userIds` holds the role and grants it to the others still voting: how
   * many got it, and the ones the gateway did not know (not members).
   */
  async #grantMissing(userIds: readonly string[]): Promise<{ given: number; absent: string[] }> {
    const { memberRoles, roleId, now } = this.options;
    const absent: string[] = [];
    if (memberRoles === undefined || userIds.length === 0 || this.#gone) return { given: 0, absent };
    if (this.#refusedUntil !== undefined && now() < this.#refusedUntil) return { given: 0, absent };
    let given = 0;
    // Asked a request's worth at a time, so grants start with the first answer.
    const slices: Array<readonly string[]> = [];
    for (let i = 0; i < userIds.length; i += IDS_PER_REQUEST) slices.push(userIds.slice(i, i + IDS_PER_REQUEST));
    await Promise.all(
      slices.map(async (slice) => {
        // A member absent from the answer left the server: nothing to give.
        const roles = await memberRoles(slice);
        absent.push(...slice.filter((userId) => !roles.has(userId)));
        for (const [userId, held] of roles) {
          if (held.includes(roleId)) continue;
          if (await this.#inTurn(userId, () => this.#grantIfRunning(userId))) given += 1;
        }
      }),
    );
    return { given, absent };
  }

  /** Grants the role if the store still has the vote running now, at send time; true when a grant was sent. */
  async #grantIfRunning(userId: string): Promise<boolean> {
    const { runningUntil, now, logger } = this.options;
    const endsAt = await runningUntil(userId);
    if (endsAt === undefined || endsAt <= now()) {
      logger.info({ userId }, 'voter role not given: the vote ended before the change was sent');
      return false;
    }
    return this.#change('grant', userId);
  }

  #inTurn<T>(userId: string, change: () => Promise<T>): Promise<T> {
    const before = this.#chains.get(userId);
    const result = before === undefined ? change() : before.then(change, change);
    const tail = result.catch(() => undefined);
    this.#chains.set(userId, tail);
    void tail.then(() => {
      if (this.#chains.get(userId) === tail) this.#chains.delete(userId);
    });
    return result;
  }

  /** A grant left out is made by the next full reconcile; a removal left out keeps its schedule entry. */
  #skipped(change: RoleChange): false {
    if (change === 'remove') throw new RoleChangesRefused();
    this.#missedGrants = true;
    return false;
  }

  /** True when Discord made the change. */
  async #change(change: RoleChange, userId: string): Promise<boolean> {
    const { roleId, logger, now } = this.options;
    // Nobody holds a deleted role: nothing to give, nothing to take; the expiry is done with.
    if (this.#gone) return false;
    if (this.#refusedUntil !== undefined && now() < this.#refusedUntil) return this.#skipped(change);
    let outcome: RoleChangeOutcome;
    try {
      outcome =
        change === 'grant'
          ? await this.#roles.grant(userId, roleId, GRANT_REASON)
          : await this.#roles.remove(userId, roleId, REMOVE_REASON);
      // A 403 (Manage Roles, role position) is waited out with probes, a 404 (the role deleted) parks
      // the role until another is set; any other refusal fails the change as a transient failure does.
      if (outcome.kind === 'refused' && outcome.refusal.status !== 403 && outcome.refusal.reason !== 'unknown')
        throw outcome.err;
    } catch (err) {
      logger.warn({ err, userId, change }, 'voter role change failed');
      throw err;
    }
    if (outcome.kind === 'absent') {
      logger.debug({ userId, change }, 'voter role: member is no longer in the server; skipped');
      this.#noteAbsent(userId);
      return false;
    }
    if (outcome.kind === 'refused' && outcome.refusal.reason === 'unknown') {
      await this.#roleGone();
      return false;
    }
    if (outcome.kind === 'refused') {
      await this.#refused();
      return this.#skipped(change);
    }
    if (this.#refusedUntil !== undefined) {
      this.#refusedUntil = undefined;
      logger.info({ roleId }, 'voter role changes work again');
    }
    logger.info({ userId, change, roleId }, change === 'grant' ? 'voter role given' : 'voter role removed');
    return true;
  }

  /**
   * A start offers every listed voter, and many may never have joined: they are said in one line a
   * moment after the last one found, not a line each (each is at debug).
   */
  #noteAbsent(userId: string): void {
    this.#absent.push(userId);
    this.#absentTimer?.refresh();
    this.#absentTimer ??= setTimeout(() => {
      const absent = this.#absent;
      this.#absent = [];
      this.#absentTimer = undefined;
      this.options.logger.info(
        { guildId: this.options.guildId, absent: absent.length, sample: absent.slice(0, ABSENT_SAMPLE) },
        `${absent.length} listed voter${absent.length === 1 ? ' is' : 's are'} not in the server`,
      );
    }, ABSENT_SUMMARY_MS).unref();
  }

  /** Said once (not per vote), in the log and the audit channel, with the fix: another role. */
  async #roleGone(): Promise<void> {
    if (this.#gone) return;
    this.#gone = true;
    await this.#tellParked(
      'voterRoleId',
      'the voter role no longer exists (Discord answered 404): voter role changes for this server are parked. ' +
        'Fix: /setup role voter: with a role that exists (VOTER_ROLE_ID in a one-server setup, then restart). ' +
        'They resume once a role is set.',
      'voterRole.gone',
      'could not tell the audit channel that the voter role no longer exists',
    );
  }

  /** Said once per refusal (not per member), in the log and the audit channel, with the fix. */
  async #refused(): Promise<void> {
    const { now, probeMs } = this.options;
    const first = this.#refusedUntil === undefined;
    this.#refusedUntil = now() + probeMs;
    if (!first) return;
    await this.#tellParked(
      'VOTER_ROLE_ID',
      "Discord refused to change the voter role (403): the bot lacks Manage Roles, or the role sits above the bot's highest role. " +
        "Fix: Server Settings → Roles: give the bot's role Manage Roles and drag it above the voter role. " +
        'Role changes resume by themselves once fixed.',
      'voterRole.blocked',
      'could not tell the audit channel that role changes are refused',
    );
  }

  async #tellParked(setting: string, line: string, key: 'voterRole.gone' | 'voterRole.blocked', failedLine: string) {
    const { logger, roleId, auditChannelId, poster } = this.options;
    logger.error({ roleId, setting }, line);
    await tellAuditChannel(poster, {
      channelId: auditChannelId,
      body: textBody(this.options.i18n().t(key, { role: `<@&${roleId}>` })),
      logger,
      failedLine,
    });
  }
}
