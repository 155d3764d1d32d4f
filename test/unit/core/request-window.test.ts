import { describe, expect, it } from '@jest/globals';
import { RequestWindow } from '../../../src/core/request-window.js';

// Top.gg blocks a token for an hour past 60 requests a minute: the process's one window spreads a
// burst out so that no 60 s ever holds more than the limit, on an injected clock.

const MINUTE = 60_000;

/** Books `count` requests at the clock's time, each sent when its wait ends; the send times. */
function burst(window: RequestWindow, clock: { now: number }, count: number): number[] {
  return Array.from({ length: count }, () => clock.now + window.reserve());
}

/** The most sends inside any span of `span` ms. */
const busiest = (sends: readonly number[], span: number) =>
  Math.max(...sends.map((start) => sends.filter((t) => t >= start && t < start + span).length));

describe('RequestWindow', () => {
  it('lets the first `limit` requests go at once and makes the next wait for the oldest to leave the window', () => {
    const clock = { now: 1_000_000 };
    const window = new RequestWindow(60, MINUTE, () => clock.now);
    const sends = burst(window, clock, 61);
    expect(sends.slice(0, 60).every((t) => t === clock.now)).toBe(true);
    expect(sends[60]).toBe(clock.now + MINUTE);
  });

  it('never puts more than the limit in any window, however the requests come', () => {
    const clock = { now: 0 };
    const window = new RequestWindow(60, MINUTE, () => clock.now);
    const sends: number[] = [];
    for (let round = 0; round < 10; round++) {
      sends.push(...burst(window, clock, 37));
      clock.now += 7_000 * round;
    }
    expect(sends).toHaveLength(370);
    expect(busiest(sends, MINUTE)).toBe(60);
    // Sorted: a later booking never goes before an earlier one.
    expect([...sends].sort((a, b) => a - b)).toEqual(sends);
  });

  it('waits nothing once the window has emptied', () => {
    const clock = { now: 0 };
    const window = new RequestWindow(2, MINUTE, () => clock.now);
    burst(window, clock, 2);
    clock.now += MINUTE;
    expect(window.reserve()).toBe(0);
    expect(window.reserve()).toBe(0);
    expect(window.reserve()).toBe(MINUTE);
  });

  it('sleeps for the wait it booked', async () => {
    const clock = { now: 0 };
    const window = new RequestWindow(1, MINUTE, () => clock.now);
    const slept: number[] = [];
    const sleep = async (ms: number) => void slept.push(ms);
    await window.take(sleep);
    await window.take(sleep);
    expect(slept).toEqual([MINUTE]);
  });

  it('refuses a limit below one', () => {
    expect(() => new RequestWindow(0, MINUTE)).toThrow(RangeError);
  });
});
