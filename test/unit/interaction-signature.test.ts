import { describe, expect, it } from '@jest/globals';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { checkSignature, publicKeyFromHex } from '../../src/http-interactions/signature.js';

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const BODY = Buffer.from('{"type":2,"id":"1"}');

function keyPair(): { privateKey: KeyObject; hex: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  return { privateKey, hex: raw.toString('hex') };
}

const discord = keyPair();
const key = publicKeyFromHex(discord.hex);
const seconds = (at: number) => String(Math.floor(at / 1000));
const signed = (timestamp: string, body: Buffer, privateKey = discord.privateKey) =>
  sign(null, Buffer.concat([Buffer.from(timestamp), body]), privateKey).toString('hex');

describe("Discord's request signature", () => {
  it('accepts a body signed with the application key a moment ago', () => {
    const timestamp = seconds(NOW - 2_000);
    expect(checkSignature(key, signed(timestamp, BODY), timestamp, BODY, NOW)).toEqual({ ok: true });
  });

  it('refuses a signature made with another key', () => {
    const timestamp = seconds(NOW);
    const other = keyPair().privateKey;
    expect(checkSignature(key, signed(timestamp, BODY, other), timestamp, BODY, NOW)).toEqual({
      ok: false,
      problem: 'mismatch',
    });
  });

  it('refuses a request without a signature or without a timestamp', () => {
    const timestamp = seconds(NOW);
    expect(checkSignature(key, undefined, timestamp, BODY, NOW)).toEqual({ ok: false, problem: 'missing' });
    expect(checkSignature(key, signed(timestamp, BODY), undefined, BODY, NOW)).toEqual({
      ok: false,
      problem: 'missing',
    });
  });

  it('refuses a body changed after it was signed', () => {
    const timestamp = seconds(NOW);
    const tampered = Buffer.from('{"type":2,"id":"2"}');
    expect(checkSignature(key, signed(timestamp, BODY), timestamp, tampered, NOW)).toEqual({
      ok: false,
      problem: 'mismatch',
    });
  });

  it('refuses a correct signature whose timestamp is 10 minutes old, or 10 minutes ahead', () => {
    for (const at of [NOW - 600_000, NOW + 600_000]) {
      const timestamp = seconds(at);
      expect(checkSignature(key, signed(timestamp, BODY), timestamp, BODY, NOW)).toEqual({
        ok: false,
        problem: 'stale',
      });
    }
  });

  it('refuses a signature or timestamp that is not what Discord sends, without throwing', () => {
    const timestamp = seconds(NOW);
    const good = signed(timestamp, BODY);
    for (const [signature, stamp] of [
      ['zz'.repeat(64), timestamp],
      [good.slice(2), timestamp],
      [`${good}00`, timestamp],
      [good, 'yesterday'],
      [good, `${timestamp}.5`],
    ] as const)
      expect(checkSignature(key, signature, stamp, BODY, NOW)).toEqual({ ok: false, problem: 'malformed' });
  });

  it('reads only a 64-hex-character public key', () => {
    expect(() => publicKeyFromHex('ab'.repeat(31))).toThrow(/64 hex characters/);
    expect(() => publicKeyFromHex('xy'.repeat(32))).toThrow(/64 hex characters/);
  });
});
