import { describe, expect, it } from '@jest/globals';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { voteSignature } from '../../../src/forwarding/signature.js';

// A verifier written from issue 51's words alone, as a receiving bot's author would write it:
// `x-vote-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`.
function verify(header: string, rawBody: string, secret: string, nowSeconds: number): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=') as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > 300 || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${rawBody}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const SECRET = 'vrf_0123456789abcdefghijklmnopqrstuv';
const BODY = '{"type":"vote.create","id":"d1","data":{"member_id":"1"}}';

describe('voteSignature', () => {
  it('is accepted by a verifier written from the issue text', () => {
    const header = voteSignature(SECRET, BODY, 1_800_000_000);
    expect(header).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/);
    expect(verify(header, BODY, SECRET, 1_800_000_010)).toBe(true);
  });

  it('is refused for another body, another secret or another time', () => {
    const header = voteSignature(SECRET, BODY, 1_800_000_000);
    expect(verify(header, BODY.replace('"1"', '"2"'), SECRET, 1_800_000_000)).toBe(false);
    expect(verify(header, BODY, `${SECRET}x`, 1_800_000_000)).toBe(false);
    const moved = header.replace('t=1800000000', 't=1800000001');
    expect(verify(moved, BODY, SECRET, 1_800_000_000)).toBe(false);
  });
});
