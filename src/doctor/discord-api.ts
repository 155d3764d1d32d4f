import { DiscordAPIError, REST } from 'discord.js';
import type { Config } from '../config/bot.js';
import { DISCORD_API } from '../config/shared-fields.js';

export interface GuildInfo {
  id: string;
  name: string;
  ownerId: string;
  roles: ReadonlyArray<{ id: string; name: string; position: number; permissions: string; managed?: boolean }>;
}

export interface BotMember {
  roles: readonly string[];
}

/**
 * A REST client for reads only. Few retries and a short timeout: the doctor reports a slow or
 * unreachable Discord instead of waiting it out.
 */
export function doctorRest(config: Config): REST {
  // The base without /v10: REST adds the version itself.
  return new REST({ api: config.discord.apiUrl ?? DISCORD_API, timeout: 10_000, retries: 1 }).setToken(
    config.discord.token,
  );
}

/** The HTTP status of a refused call, or undefined when Discord gave no answer at all. */
export function discordStatus(error: unknown): number | undefined {
  return error instanceof DiscordAPIError ? error.status : undefined;
}

/** A short reason for a failed call, never the request's URL or headers (the token is in neither, but keep it so). */
export function discordReason(error: unknown): string {
  if (error instanceof DiscordAPIError) return `${error.status} ${error.message}`;
  const e = error as { cause?: { code?: string }; code?: string; name?: string; message?: string };
  return e.cause?.code ?? e.code ?? (e.name === 'AbortError' ? 'timed out' : (e.message ?? 'no answer'));
}

export const UNREACHABLE_FIX =
  'check the network, or DISCORD_API_URL if you set it (leave it empty for Discord itself).';
