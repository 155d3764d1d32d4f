import type { Guild } from 'discord.js';
import type { GatewayMembers } from '../bot/gateway-members.js';

/** The roles of these members, as Discord has them now; members who left are absent. */
export type MemberRolesLookup = (userIds: readonly string[]) => Promise<ReadonlyMap<string, readonly string[]>>;

/**
 * The roles of the given members, asked of the gateway by id (batched and paced with the name
 * lookups); members who left the server are absent from the answer. Rejects when the gateway does
 * not answer or is not connected: then nobody can be told apart from a member who left.
 */
export async function memberRoles(
  members: GatewayMembers,
  guild: Guild | null,
  userIds: readonly string[],
): Promise<ReadonlyMap<string, readonly string[]>> {
  if (userIds.length === 0) return new Map();
  if (!guild) throw new Error('the server is not available on the gateway');
  const found = await members.fetch(guild, userIds);
  return new Map([...found].map(([id, member]) => [id, [...member.roles.cache.keys()]]));
}
