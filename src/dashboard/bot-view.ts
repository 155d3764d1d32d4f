import { ClientUser, DiscordAPIError, RESTJSONErrorCodes, Routes, type Client, type Guild } from 'discord.js';
import { BoundedMap } from '../core/bounded-map.js';
import type { BotView } from './deps.js';

/** Discord's answers that mean "not in this server", rather than "try again". */
const ABSENT = new Set<number | string>([
  RESTJSONErrorCodes.UnknownGuild,
  RESTJSONErrorCodes.MissingAccess,
  RESTJSONErrorCodes.UnknownMember,
  RESTJSONErrorCodes.UnknownUser,
]);

const absent = (error: unknown) => error instanceof DiscordAPIError && ABSENT.has(error.code);

async function memberOf(guild: Guild, userId: string) {
  try {
    // Asked each time: a member's roles may have changed since the cache (if any) saw them.
    return await guild.members.fetch({ user: userId, force: true });
  } catch (error) {
    if (absent(error)) return undefined;
    throw error;
  }
}

/** `npm start`: the gateway's guild cache, kept current by Discord's events. */
export function gatewayView(client: Client): BotView {
  return {
    guild: async (guildId) => {
      const guild = client.guilds.cache.get(guildId);
      return guild?.available ? guild : undefined;
    },
    member: memberOf,
  };
}

/** How long a server read over REST serves before it is read again. */
export const REST_FRESH_MS = 30_000;

/**
 * `npm run dashboard`: no gateway, so each server is read over REST (the server with its roles, its
 * channels, the bot's own member) into the client's caches, where the setup checks read it as they
 * read the gateway's. A read serves REST_FRESH_MS; reads of one server at once share one request.
 */
export async function restView(client: Client): Promise<BotView> {
  // The gateway's READY would set the bot's own user; the permission checks need its id.
  const me = await client.rest.get(Routes.user());
  const make = ClientUser as unknown as new (client: Client, data: unknown) => ClientUser;
  (client as { user: ClientUser | null }).user = new make(client, me);
  const reads = new BoundedMap<string, Promise<Guild | undefined>>({ max: 10_000 });
  const read = async (guildId: string): Promise<Guild | undefined> => {
    try {
      const guild = await client.guilds.fetch({ guild: guildId, force: true });
      await Promise.all([guild.channels.fetch(), guild.members.fetchMe({ force: true })]);
      return guild;
    } catch (error) {
      if (absent(error)) return undefined;
      throw error;
    }
  };
  return {
    guild(guildId) {
      const kept = reads.get(guildId);
      if (kept) return kept;
      const reading = read(guildId);
      reads.set(guildId, reading, REST_FRESH_MS);
      // A failed read is not kept: the next page asks again.
      reading.catch(() => reads.delete(guildId));
      return reading;
    },
    member: memberOf,
  };
}
