import type { REST } from 'discord.js';
import type { Config } from '../config/bot.js';
import type { ServiceProbe } from './service-probe.js';
import type { BotMember, GuildInfo } from './discord-api.js';
import type { ListingState } from '../servers/listings.js';

/** What one check found: a pass, a fault with the fix, or not run because an earlier check failed. */
export type Outcome =
  | { status: 'pass'; detail: string }
  | { status: 'fail'; detail: string; fix: string }
  /** Works, but likely not as meant: not a failure, shown with the fix. */
  | { status: 'warn'; detail: string; fix: string }
  | { status: 'skip'; detail: string };

/**
 * What earlier checks learned, for the later ones: a check that needs something an earlier check
 * could not get skips, so one root cause is reported once, with its fix.
 */
export interface DoctorState {
  /** The settings to check (a test's); the process's own, with .env, when absent. */
  env?: NodeJS.ProcessEnv;
  config?: Config;
  discord?: REST;
  bot?: { id: string; name: string };
  guild?: GuildInfo;
  botMember?: BotMember;
  service?: ServiceProbe;
  /** `--server`: the configuration is one server's of many; the commands are still the global ones. */
  oneOfMany?: boolean;
  /** The server's lists besides Guilds, with their last delivery and test (listing-checks.ts). */
  listings?: ListingState[];
}

export interface Check {
  /** Short and stable: the start of the printed line. */
  readonly name: string;
  run(state: DoctorState): Promise<Outcome>;
}

export const pass = (detail: string): Outcome => ({ status: 'pass', detail });
export const fail = (detail: string, fix: string): Outcome => ({ status: 'fail', detail, fix });
export const skip = (detail: string): Outcome => ({ status: 'skip', detail });
export const warn = (detail: string, fix: string): Outcome => ({ status: 'warn', detail, fix });

/** Who the bot is in the server, as the permission rules (src/guild-rules/) read it. */
export function botInGuild(guild: GuildInfo, bot: { id: string }, botMember: BotMember) {
  return {
    guildId: guild.id,
    ownerId: guild.ownerId,
    memberId: bot.id,
    memberRoles: botMember.roles,
    roles: guild.roles,
  };
}
