import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Timetable } from '../../../src/work/timetable.js';

/** The timetable's one timer and its clock (Date.now) run on jest's clock, moved by the test. */
beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  jest.useRealTimers();
});
const advance = (ms: number) => jest.advanceTimersByTime(ms);

describe('a timetable: one timer for many keyed jobs', () => {
  it('runs 2,000 jobs in the order of their times, each once', () => {
    const table = new Timetable();
    const start = Date.now();
    const ran: number[] = [];
    const order = Array.from({ length: 2_000 }, (_, i) => (i * 7919) % 2_000);
    for (const i of order) table.at(`job ${i}`, start + 20 + (i % 50), () => ran.push(i % 50));
    advance(19);
    expect(ran).toEqual([]);
    advance(50);
    expect(ran).toHaveLength(2_000);
    expect(ran).toEqual([...ran].sort((a, b) => a - b));
    expect(table.size).toBe(0);
    table.stop();
  });

  it('keeps a cadence per job, replaces a rescheduled time, and runs nothing cancelled or after stop', () => {
    const table = new Timetable();
    const runs = new Map<string, number>();
    const count = (key: string) => () => runs.set(key, (runs.get(key) ?? 0) + 1);
    const now = Date.now();
    table.every('poll a', now + 10, 40, count('a'));
    table.every('poll b', now + 10, 40, count('b'));
    table.at('once', now + 10, count('once'));
    table.at('moved', now + 10, count('moved'));
    table.at('moved', now + 1_000, count('moved'));
    table.at('gone', now + 10, count('gone'));
    table.cancel('gone');
    table.cancel('poll b');
    advance(190);
    // At 10, 50, 90, 130 and 170 ms.
    expect(runs.get('a')).toBe(5);
    expect(runs.get('b')).toBeUndefined();
    expect(runs.get('once')).toBe(1);
    expect(runs.get('moved')).toBeUndefined();
    expect(runs.get('gone')).toBeUndefined();
    table.stop();
    advance(1_000);
    expect(runs.get('a')).toBe(5);
    expect(runs.get('moved')).toBeUndefined();
  });

  it('goes on after a job that throws', () => {
    const table = new Timetable();
    let ran = false;
    const now = Date.now();
    table.at('bad', now + 5, () => {
      throw new Error('boom');
    });
    table.at('good', now + 6, () => (ran = true));
    advance(6);
    expect(ran).toBe(true);
    table.stop();
  });
});
