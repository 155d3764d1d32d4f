import { manageableGuildIds, type PartialGuild } from './manageable.js';

/** How long Discord gets for each read of the member after the code was traded. */
const READ_MS = 10_000;

/** The user Discord's /users/@me sends (the fields the dashboard reads). */
interface DiscordUser {
  id: string;
  username: string;
  global_name?: string | null;
  locale?: string;
}

/** Discord did not answer the sign-in's reads: worth trying again in a moment. */
export class DiscordUnavailable extends Error {
  constructor(readonly status: number | undefined) {
    super(`Discord answered the sign-in's read with ${status ?? 'no answer'}`);
    this.name = 'DiscordUnavailable';
  }
}

/**
 * The member behind an OAuth2 access token: who they are and the servers they may set up, read at
 * DISCORD_API_URL (the stand-in in tests). The token is used for these two reads and then dropped.
 */
export async function readMember(apiBase: string, accessToken: string) {
  const get = async <T>(path: string): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(`${apiBase}/v10${path}`, {
        headers: { authorization: `Bearer ${accessToken}` },
        signal: AbortSignal.timeout(READ_MS),
      });
    } catch {
      throw new DiscordUnavailable(undefined);
    }
    if (!response.ok) throw new DiscordUnavailable(response.status);
    return (await response.json()) as T;
  };
  const [user, guilds] = await Promise.all([get<DiscordUser>('/users/@me'), get<PartialGuild[]>('/users/@me/guilds')]);
  return {
    id: user.id,
    name: user.global_name || user.username,
    locale: user.locale ?? 'en-US',
    guildIds: manageableGuildIds(Array.isArray(guilds) ? guilds : []),
  };
}
