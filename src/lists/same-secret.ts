import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether `given` is `expected`, in time that tells nothing about either: both are hashed first, so
 * neither a differing length nor the first differing byte shows in the answer's timing. An empty
 * `expected` matches nothing, so a listing without a secret never accepts an empty header.
 */
export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined || expected.length === 0) return false;
  return timingSafeEqual(digest(given), digest(expected));
}
