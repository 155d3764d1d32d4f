import type { Delivery, Refusal, Verdict } from './site.js';
import { sameSecret } from './same-secret.js';

/** A header's value; a repeated header counts as its first value. */
export function header(delivery: Delivery, name: string): string | undefined {
  const value = delivery.headers[name];
  return typeof value === 'string' ? value : value?.[0];
}

export const ACCEPTED: Verdict = { ok: true };
export const refused = (refusal: Refusal): Verdict => ({ ok: false, refusal });

/** The check of sites that send a shared secret as it is: absent is missing, anything else must match. */
export function verifyShared(given: string | undefined, secret: string): Verdict {
  if (given === undefined || given.length === 0) return refused('missing-secret');
  return sameSecret(given, secret) ? ACCEPTED : refused('wrong-secret');
}
