import { createPublicKey, verify, type KeyObject } from 'node:crypto';

/** Ed25519's SubjectPublicKeyInfo header: with the 32 raw bytes after it, a DER key Node reads. */
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** How far a request's timestamp may be from now, either way: Discord's own bound on a replay. */
export const SIGNATURE_MAX_SKEW_MS = 5 * 60_000;

/** Why a request was refused; each is answered 401 and counted, never logged per request. */
export type SignatureProblem = 'missing' | 'malformed' | 'stale' | 'mismatch';

export type SignatureCheck = { ok: true } | { ok: false; problem: SignatureProblem };

/** The application's public key (DISCORD_PUBLIC_KEY, 64 hex characters) as a key Node verifies with. */
export function publicKeyFromHex(hex: string): KeyObject {
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error('an Ed25519 public key is 64 hex characters');
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, Buffer.from(hex, 'hex')]), format: 'der', type: 'spki' });
}

/**
 * Discord's signature over `timestamp + body`, checked on the raw bytes before anything parses
 * them: Discord sends bad signatures on purpose and drops an endpoint that accepts one.
 */
export function checkSignature(
  key: KeyObject,
  signature: string | undefined,
  timestamp: string | undefined,
  body: Buffer,
  now: number,
): SignatureCheck {
  if (!signature || !timestamp) return { ok: false, problem: 'missing' };
  if (!/^[0-9a-f]{128}$/i.test(signature) || !/^\d{1,12}$/.test(timestamp)) return { ok: false, problem: 'malformed' };
  if (Math.abs(now - Number(timestamp) * 1000) > SIGNATURE_MAX_SKEW_MS) return { ok: false, problem: 'stale' };
  const signed = Buffer.concat([Buffer.from(timestamp, 'utf8'), body]);
  return verify(null, signed, key, Buffer.from(signature, 'hex')) ? { ok: true } : { ok: false, problem: 'mismatch' };
}
