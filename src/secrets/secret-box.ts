import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets at rest: AES-256-GCM with a fresh 96-bit IV per value and the server id as associated
 * data, so a value copied into another server's row fails to open. Each sealed value names the key
 * that sealed it (a short hash of the key, never the key), so an old key can still open what it
 * sealed while everything is re-sealed under the new one.
 */
export interface SecretKey {
  /** 8 hex characters of the key's SHA-256: which key sealed a value. */
  readonly id: string;
  readonly key: Buffer;
}

export interface SecretKeys {
  /** Seals every new value. */
  readonly current: SecretKey;
  /** Still opens what it sealed, until `npm run rotate-secrets` has re-sealed it all. */
  readonly previous?: SecretKey;
}

const VERSION = 'v1';
const KEY_ID_CHARS = 8;
const IV_BYTES = 12;
const KEY_BYTES = 32;
/** GCM would otherwise check a tag as short as 4 bytes: a forger then needs only 2^32 tries. */
const TAG_BYTES = 16;

/** Why a sealed value could not be opened; never carries the value or the key. */
export class SecretError extends Error {
  constructor(readonly reason: 'unknown-key' | 'tampered' | 'malformed') {
    super(
      reason === 'unknown-key'
        ? 'a stored secret was sealed with a key that is neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS'
        : reason === 'tampered'
          ? 'a stored secret does not open with its key: it was changed, or copied from another server'
          : 'a stored secret is not in the sealed format',
    );
    this.name = 'SecretError';
  }
}

/** A key from its base64 text; throws a message naming the setting (never echoing the value). */
export function secretKey(base64: string, setting: string): SecretKey {
  const trimmed = base64.trim();
  const key = Buffer.from(trimmed, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) || key.length !== KEY_BYTES)
    throw new Error(
      `${setting} must be 32 random bytes in base64 (44 characters); make one with: openssl rand -base64 32`,
    );
  return { id: createHash('sha256').update(key).digest('hex').slice(0, KEY_ID_CHARS), key };
}

export function sealSecret(keys: SecretKeys, serverId: string, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keys.current.key, iv);
  cipher.setAAD(aad(serverId));
  const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [
    VERSION,
    keys.current.id,
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    sealed.toString('base64url'),
  ].join(':');
}

export function openSecret(keys: SecretKeys, serverId: string, sealed: string): string {
  const parts = sealed.split(':');
  if (parts.length !== 5 || parts[0] !== VERSION) throw new SecretError('malformed');
  const [, keyId, iv, tag, body] = parts as [string, string, string, string, string];
  const key = [keys.current, keys.previous].find((k) => k?.id === keyId);
  if (!key) throw new SecretError('unknown-key');
  if (Buffer.from(tag, 'base64url').length !== TAG_BYTES) throw new SecretError('tampered');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(iv, 'base64url'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(aad(serverId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretError('tampered');
  }
}

/** How many characters open a sealed value and name its key (`v1:<key id>:`): all a store reads to tell keys apart. */
export const SEALED_HEAD_CHARS = VERSION.length + KEY_ID_CHARS + 2;

/** The id of the key that sealed a value, from its first SEALED_HEAD_CHARS; undefined when not in the sealed format. */
export function sealingKeyId(head: string): string | undefined {
  const [version, keyId, rest] = head.slice(0, SEALED_HEAD_CHARS).split(':');
  return version === VERSION && keyId?.length === KEY_ID_CHARS && rest === '' ? keyId : undefined;
}

/** True when the value was sealed by another key than the current one. */
export function sealedWithOldKey(keys: SecretKeys, sealed: string): boolean {
  return sealed.split(':')[1] !== keys.current.id;
}

/** The last four characters, all a person is ever shown of a secret. */
export function lastFour(secret: string): string {
  return secret.length <= 4 ? '••••' : `••••${secret.slice(-4)}`;
}

const aad = (serverId: string) => Buffer.from(`server:${serverId}`, 'utf8');
