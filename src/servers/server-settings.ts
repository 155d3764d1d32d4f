import type { ServerSettingsRecord } from '../store/index.js';
import { graceMs } from '../streaks/streak.js';
import type { SettingName } from '../config/server-variables.js';

/** A server's settings as the bot acts on them: the environment's (single-server mode), else /setup's. */
export interface ServerSettings {
  readonly guildId: string;
  /** Where new reviews go; none: reviews are not posted. */
  readonly reviewChannelId: string | undefined;
  /** Where votes are announced; none: they are recorded, not announced. */
  readonly voteChannelId: string | undefined;
  /** Reply audit messages and "fix this" notices. */
  readonly auditChannelId: string | undefined;
  /** Where a member with closed DMs gets their vote reminder. */
  readonly reminderChannelId: string | undefined;
  readonly voterRoleId: string | undefined;
  readonly moderatorRoleIds: readonly string[];
  readonly voteUrl: string | undefined;
  /** How vote announcements are worded (src/announce/template.ts); none: the built-in embed. */
  readonly announceTemplate: string | undefined;
  readonly firstVoteTemplate: string | undefined;
  /** `{user}` pings the voter, and only them. */
  readonly announcePing: boolean;
  /** A member who voted on all of the server's lists (two or more) within 24 h gets a line saying so. */
  readonly announceEveryList: boolean;
  /** After a vote runs out, how long the next one still continues the streak. */
  readonly streakGraceMs: number;
}

/**
 * The environment's value where it has one (single-server mode: the .env install keeps working
 * as it did), else what /setup stored.
 */
export function effectiveSettings(
  guildId: string,
  stored: ServerSettingsRecord,
  env: ServerSettingsRecord = {},
): ServerSettings {
  const pick = <K extends SettingName>(name: K) => env[name] ?? stored[name];
  const envRoles = env.moderatorRoleIds ?? [];
  return {
    guildId,
    reviewChannelId: pick('reviewChannelId'),
    voteChannelId: pick('voteChannelId'),
    auditChannelId: pick('auditChannelId'),
    reminderChannelId: pick('reminderChannelId'),
    voterRoleId: pick('voterRoleId'),
    moderatorRoleIds: envRoles.length > 0 ? envRoles : (stored.moderatorRoleIds ?? []),
    voteUrl: pick('voteUrl'),
    announceTemplate: pick('announceTemplate'),
    firstVoteTemplate: pick('firstVoteTemplate'),
    announcePing: pick('announcePing') ?? false,
    announceEveryList: pick('announceEveryList') ?? true,
    streakGraceMs: graceMs(pick('streakGraceHours')),
  };
}

/** True when the environment fixes this setting (single-server mode): /setup may not change it. */
export function setByEnvironment(name: SettingName, env: ServerSettingsRecord | undefined): boolean {
  const value = env?.[name];
  return Array.isArray(value) ? value.length > 0 : value !== undefined;
}
