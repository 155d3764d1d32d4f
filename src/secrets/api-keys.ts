import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Every key to the vote API starts so: a leaked one is recognised for what it is (secret scanners, logs). */
const API_KEY_PREFIX = 'vrk_';

/** `vrk_` and at least 32 URL-safe characters: what API_KEYS takes, and what /setup makes (43 after the prefix). */
const API_KEY = /^vrk_[A-Za-z0-9_-]{32,200}$/;

export const isApiKey = (text: string): boolean => API_KEY.test(text);

/** A new key: 256 random bits, so a plain hash keeps it as safe as a slow one would. */
export function newApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** What the store keeps of a key: its SHA-256, hex. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Whether two hashes (hex of equal length) are the same, in a time that does not depend on where they differ. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
