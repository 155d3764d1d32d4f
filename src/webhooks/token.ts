import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compares a presented token with the expected one in constant time. Both sides are hashed first,
 * so neither the comparison nor an early length check reveals how much of a guess was right.
 */
export function tokenMatches(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
