import {
  DEFAULTS,
  defaultRoles,
  guildNameFor,
  moderatorRoleIdFor,
  textChannelIdFor,
} from '../discord-standin/fixtures.js';
import { snowflakeAt } from '../discord-standin/snowflake.js';
import type { RolePayload } from '../discord-standin/types.js';

/* The playground's servers: one, set up by the settings file as a single-server host is, or several
 * (many-server mode), each set up with /setup. Their ids are fixed, so a `--server` id written down in
 * one session works in the next. */

/** Enough to see that servers are kept apart; more shows nothing new. */
export const MAX_SERVERS = 3;

const IDS = [DEFAULTS.guildId, snowflakeAt('2022-02-02T12:00:00Z'), snowflakeAt('2023-03-03T12:00:00Z')] as const;

export interface PlaygroundServer {
  /** 1, 2, 3: what `--server` takes besides the id. */
  n: number;
  id: string;
  name: string;
  /** The server's one text channel, #general. */
  channel: { id: string; name: string };
  /** @everyone, Voter, Moderator and the bot's own role, as the stand-in made them. */
  roles: readonly RolePayload[];
  /** What the service's dashboard would show this server's owner (many-server mode types them into /setup credentials). */
  credentials: { apiKey: string; appId: string };
}

/** The first `count` servers, as the stand-in is started with them (the first is its configured guild). */
export function playgroundServers(count: number): PlaygroundServer[] {
  return IDS.slice(0, count).map((id, i) => ({
    n: i + 1,
    id,
    name: guildNameFor(i),
    channel: { id: textChannelIdFor(id), name: 'general' },
    roles: defaultRoles(id, DEFAULTS.botUserId, i === 0 ? DEFAULTS.moderatorRoleId : moderatorRoleIdFor(id)),
    credentials: { apiKey: `api-key-${i + 1}00${i + 1}`, appId: `app-id-${i + 1}00${i + 1}` },
  }));
}

/** A server by its number or id; undefined when none is. */
export function findServer(servers: readonly PlaygroundServer[], written: string): PlaygroundServer | undefined {
  return servers.find((server) => String(server.n) === written || server.id === written);
}

/** How the servers are named in a refusal: `1 (820627321651331072), 2 (…)`. */
export function serverList(servers: readonly PlaygroundServer[]): string {
  return servers.map((server) => `${server.n} (${server.id})`).join(', ');
}
