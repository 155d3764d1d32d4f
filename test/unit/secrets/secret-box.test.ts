import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import {
  lastFour,
  openSecret,
  sealedWithOldKey,
  sealSecret,
  secretKey,
  SecretError,
} from '../../../src/secrets/secret-box.js';

const SERVER_A = '111111111111111111';
const SERVER_B = '222222222222222222';
const newKey = () => secretKey(randomBytes(32).toString('base64'), 'SECRETS_KEY');

describe('secrets at rest', () => {
  it('seals a value that opens for its server only, with a fresh IV each time, the plain text nowhere in it', () => {
    const keys = { current: newKey() };
    const a = sealSecret(keys, SERVER_A, 'api-key-0123456789');
    const b = sealSecret(keys, SERVER_A, 'api-key-0123456789');
    expect(a).not.toBe(b);
    expect(a).not.toContain('api-key');
    expect(Buffer.from(a.split(':')[4]!, 'base64url').toString('latin1')).not.toContain('api-key');
    expect(openSecret(keys, SERVER_A, a)).toBe('api-key-0123456789');
    expect(() => openSecret(keys, SERVER_B, a)).toThrow(SecretError);
  });

  it('refuses a changed value, an unknown key and anything not sealed, without echoing it', () => {
    const keys = { current: newKey() };
    const sealed = sealSecret(keys, SERVER_A, 'secret');
    const parts = sealed.split(':');
    const body = Buffer.from(parts[4]!, 'base64url');
    body[0] = body[0]! ^ 1;
    const changed = [...parts.slice(0, 4), body.toString('base64url')].join(':');
    expect(() => openSecret(keys, SERVER_A, changed)).toThrow(/was changed, or copied/);
    expect(() => openSecret({ current: newKey() }, SERVER_A, sealed)).toThrow(/neither SECRETS_KEY/);
    expect(() => openSecret(keys, SERVER_A, 'secret')).toThrow(/not in the sealed format/);
  });

  it('refuses a value whose authentication tag is cut short, though its first bytes are right', () => {
    const keys = { current: newKey() };
    const parts = sealSecret(keys, SERVER_A, 'secret').split(':');
    const tag = Buffer.from(parts[3]!, 'base64url');
    expect(tag).toHaveLength(16);
    for (const bytes of [4, 8, 12, 15]) {
      const cut = [...parts.slice(0, 3), tag.subarray(0, bytes).toString('base64url'), parts[4]].join(':');
      expect(() => openSecret(keys, SERVER_A, cut)).toThrow(/was changed, or copied/);
    }
  });

  it('opens what the previous key sealed, and says it needs re-sealing', () => {
    const old = newKey();
    const sealed = sealSecret({ current: old }, SERVER_A, 'app-id');
    const rotated = { current: newKey(), previous: old };
    expect(openSecret(rotated, SERVER_A, sealed)).toBe('app-id');
    expect(sealedWithOldKey(rotated, sealed)).toBe(true);
    expect(sealedWithOldKey(rotated, sealSecret(rotated, SERVER_A, 'app-id'))).toBe(false);
    expect(() => openSecret({ current: rotated.current }, SERVER_A, sealed)).toThrow(SecretError);
  });

  it('takes a key only as 32 bytes of base64, naming the setting and not the value', () => {
    expect(() => secretKey('c2hvcnQ=', 'SECRETS_KEY')).toThrow(/SECRETS_KEY must be 32 random bytes/);
    expect(() => secretKey('not base64 at all!', 'SECRETS_KEY_PREVIOUS')).toThrow(/^SECRETS_KEY_PREVIOUS/);
    expect(() => secretKey('c2hvcnQ=', 'SECRETS_KEY')).not.toThrow(/c2hvcnQ/);
    expect(newKey().id).toMatch(/^[0-9a-f]{8}$/);
  });

  it('shows a person only the last four characters', () => {
    expect(lastFour('abcdefgh1234')).toBe('••••1234');
    expect(lastFour('abc')).toBe('••••');
  });
});
