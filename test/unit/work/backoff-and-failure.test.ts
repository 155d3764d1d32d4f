import { describe, expect, it } from '@jest/globals';
import { DiscordAPIError } from '../../../src/work/discord-api-error.js';
import { backoffMs } from '../../../src/work/backoff.js';
import { classifyFailure } from '../../../src/work/failure.js';

const apiError = (status: number, code: number) =>
  new DiscordAPIError({ message: 'x', code }, code, status, 'POST', 'https://discord.test/api', {});

describe('backoff', () => {
  it('doubles from the base, never passes the cap, and keeps at least half of each step', () => {
    const policy = { baseMs: 1_000, capMs: 8_000 };
    expect(backoffMs(1, policy, () => 0)).toBe(500);
    expect(backoffMs(1, policy, () => 1)).toBe(1_000);
    expect(backoffMs(3, policy, () => 1)).toBe(4_000);
    expect(backoffMs(50, policy, () => 1)).toBe(8_000);
    expect(backoffMs(50, policy, () => 0)).toBe(4_000);
  });
});

describe('classifyFailure', () => {
  it('calls 5xx, 429, network and store errors transient', () => {
    expect(classifyFailure(apiError(500, 0)).kind).toBe('transient');
    expect(classifyFailure(apiError(429, 0)).kind).toBe('transient');
    expect(classifyFailure(new Error('ECONNRESET')).kind).toBe('transient');
  });

  it('calls missing access, unknown channels and invalid bodies refusals, with the reason to fix', () => {
    expect(classifyFailure(apiError(403, 50001))).toEqual({
      kind: 'refused',
      status: 403,
      code: 50001,
      reason: 'access',
    });
    expect(classifyFailure(apiError(404, 10003))).toEqual({
      kind: 'refused',
      status: 404,
      code: 10003,
      reason: 'unknown',
    });
    expect(classifyFailure(apiError(400, 50035))).toEqual({
      kind: 'refused',
      status: 400,
      code: 50035,
      reason: 'invalid',
    });
  });
});
