import { DiscordAPIError, RESTJSONErrorCodes, Routes, type REST } from 'discord.js';
import { discordPoster, textBody } from '../bot/poster.js';
import type { Translator } from '../i18n/index.js';
import type { Logger } from '../log.js';
import type { ExpiryConsumer } from '../schedule/expiry-schedule.js';

export interface VoterRoleOptions {
  rest: REST;
  guildId: string;
  roleId: string;
  logger: Logger;
  now: () => number;
  /** The audit channel (REVIEW_LOG_CHANNEL_ID), told once when Discord refuses role changes. */
  auditChannelId: string | undefined;
  i18n: () => Translator;
  /** While Discord refuses, one call in this long finds out whether the fix was made. */
  probeMs: number;
  /** The roles of these members, as Discord has them now; members who left are absent. */
  memberRoles?: (userIds: readonly string[]) => Promise<ReadonlyMap<string, readonly string[]>>;
}

/** Discord answers a gateway member request for at most 100 user ids. */
const MEMBERS_PER_REQUEST = 100;

const GRANT_REASON = 'Voted for the server: voter role while the vote lasts';
const REMOVE_REASON = 'Vote ran out: voter role removed';

/** Refused with 403: the entry stays and is tried again later. */
export class RoleChangesRefused extends Error {
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

  constructor(private readonly options: VoterRoleOptions) {}

  onActive(userId: string): Promise<void> {
    return this.#change('grant', userId);
  }

  onExpired(userId: string): Promise<void> {
    return this.#change('remove', userId);
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
    const { memberRoles, roleId, now } = this.options;
    if (memberRoles === undefined) return;
    for (let i = 0; i < running.length; i += MEMBERS_PER_REQUEST) {
      if (this.#refusedUntil !== undefined && now() < this.#refusedUntil) return;
      const roles = await memberRoles(running.slice(i, i + MEMBERS_PER_REQUEST));
      for (const [userId, held] of roles) if (!held.includes(roleId)) await this.#change('grant', userId);
    }
  }

  /** A grant left out is made by the next full reconcile; a removal left out keeps its schedule entry. */
  #skipped(change: 'grant' | 'remove'): void {
    if (change === 'remove') throw new RoleChangesRefused();
    this.#missedGrants = true;
  }

  async #change(change: 'grant' | 'remove', userId: string): Promise<void> {
    const { rest, guildId, roleId, logger, now } = this.options;
    if (this.#refusedUntil !== undefined && now() < this.#refusedUntil) return this.#skipped(change);
    const route = Routes.guildMemberRole(guildId, userId, roleId);
    try {
      if (change === 'grant') await rest.put(route, { reason: GRANT_REASON });
      else await rest.delete(route, { reason: REMOVE_REASON });
    } catch (err) {
      if (err instanceof DiscordAPIError && err.code === RESTJSONErrorCodes.UnknownMember) {
        logger.info({ userId, change }, 'voter role: member is no longer in the server; skipped');
        return;
      }
      if (err instanceof DiscordAPIError && err.status === 403) {
        await this.#refused();
        return this.#skipped(change);
      }
      logger.warn({ err, userId, change }, 'voter role change failed');
      throw err;
    }
    if (this.#refusedUntil !== undefined) {
      this.#refusedUntil = undefined;
      logger.info({ roleId }, 'voter role changes work again');
    }
    logger.info({ userId, change, roleId }, change === 'grant' ? 'voter role given' : 'voter role removed');
  }

  /** Said once per refusal (not per member), in the log and the audit channel, with the fix. */
  async #refused(): Promise<void> {
    const { logger, now, probeMs, roleId, auditChannelId, rest } = this.options;
    const first = this.#refusedUntil === undefined;
    this.#refusedUntil = now() + probeMs;
    if (!first) return;
    logger.error(
      { roleId, setting: 'VOTER_ROLE_ID' },
      "Discord refused to change the voter role (403): the bot lacks Manage Roles, or the role sits above the bot's highest role. " +
        "Fix: Server Settings → Roles: give the bot's role Manage Roles and drag it above the voter role. " +
        'Role changes resume by themselves once fixed.',
    );
    if (auditChannelId === undefined) return;
    await discordPoster(rest).audit(
      auditChannelId,
      textBody(this.options.i18n().t('voterRole.blocked', { role: `<@&${roleId}>` })),
      (err) =>
        logger.warn(
          { err, channelId: auditChannelId },
          'could not tell the audit channel that role changes are refused',
        ),
    );
  }
}
