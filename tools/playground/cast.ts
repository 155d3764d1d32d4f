import { MEMBER_PERMISSIONS, MODERATOR_PERMISSIONS } from '../discord-standin/fixtures.js';
import { member } from '../discord-standin/payloads.js';
import type { MemberPayload } from '../discord-standin/types.js';

/* The made-up members of the demo and the playground. Alice, Bob and Carol are the service
 * sandbox's seed users (src/sandbox/seed.json), so what the bot finds for them is known. */

export interface Person {
  id: string;
  name: string;
  /** What they stand for, as the playground lists them. */
  role: string;
  member: MemberPayload;
}

function person(id: string, name: string, role: string, permissions: bigint): Person {
  return { id, name, role, member: member({ id, username: name.toLowerCase(), nick: name, permissions }) };
}

export const alice = person('284102390141648897', 'Alice', 'a running vote and a 5-star review', MEMBER_PERMISSIONS);
export const bob = person('412958623017041920', 'Bob', 'no vote, no review', MEMBER_PERMISSIONS);
export const carol = person(
  '593031275438718986',
  'Carol',
  'a 2-star review with **bold** and @everyone',
  MEMBER_PERMISSIONS,
);
export const maya = person('190734882611429376', 'Maya', 'a moderator (Manage Server)', MODERATOR_PERMISSIONS);
export const dan = person(
  '731849927350075412',
  'Dan',
  'votes twice (double) through Guilds as the bot connects',
  MEMBER_PERMISSIONS,
);

export const CAST: readonly Person[] = [alice, bob, carol, maya, dan];

/** A person by name (any case) or by id; undefined when nobody matches. */
export function findPerson(nameOrId: string): Person | undefined {
  const wanted = nameOrId.replace(/^@/, '').toLowerCase();
  return CAST.find((p) => p.id === wanted || p.name.toLowerCase() === wanted);
}
