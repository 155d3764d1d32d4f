import type { Guild } from 'discord.js';

/** How long a gateway member request may take before the check gives up until its next pass. */
const MEMBER_FETCH_MS = 15_000;

/**
 * The roles of the given members, asked of the gateway by id (op 8: no privileged intent needed for
 * given ids); members who left the server are absent from the answer.
 */
export async function memberRoles(
  guild: Guild | null,
  userIds: readonly string[],
): Promise<ReadonlyMap<string, readonly string[]>> {
  if (!guild || userIds.length === 0) return new Map();
  const members = await guild.members.fetch({ user: [...userIds], time: MEMBER_FETCH_MS });
  return new Map(members.map((member, id) => [id, [...member.roles.cache.keys()]]));
}
