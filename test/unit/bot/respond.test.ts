import { describe, expect, it } from '@jest/globals';
import { DEFER_AFTER_MS, deferDelay } from '../../../src/bot/respond.js';

const NOW = Date.parse('2026-11-24T12:00:00Z');

describe("deferDelay: time left before deferring, counted from the interaction's creation", () => {
  it('leaves the whole delay to an interaction made just now', () => {
    expect(deferDelay(NOW, NOW)).toBe(DEFER_AFTER_MS);
  });

  it('takes off what the interaction already waited before the bot saw it', () => {
    expect(deferDelay(NOW - 500, NOW)).toBe(DEFER_AFTER_MS - 500);
    expect(deferDelay(NOW - 1_799, NOW)).toBe(1);
  });

  it('defers at once an interaction older than the delay', () => {
    expect(deferDelay(NOW - DEFER_AFTER_MS, NOW)).toBe(0);
    expect(deferDelay(NOW - 2_500, NOW)).toBe(0);
  });

  it("counts from now when the clock is behind Discord's (the id is from the future)", () => {
    expect(deferDelay(NOW + 700, NOW)).toBe(DEFER_AFTER_MS);
  });
});
