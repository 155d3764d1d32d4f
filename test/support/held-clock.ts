import { jest } from '@jest/globals';

type Clock = 'Date' | 'performance';
/** What jest's fake timers can fake (FakeableAPI in @jest/types). */
type Fakeable =
  | 'Date'
  | 'hrtime'
  | 'nextTick'
  | 'performance'
  | 'queueMicrotask'
  | 'requestAnimationFrame'
  | 'cancelAnimationFrame'
  | 'requestIdleCallback'
  | 'cancelIdleCallback'
  | 'setImmediate'
  | 'clearImmediate'
  | 'setInterval'
  | 'clearInterval'
  | 'setTimeout'
  | 'clearTimeout'
  | 'Temporal';

const FAKEABLE: readonly Fakeable[] = [
  'Date',
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'requestIdleCallback',
  'cancelIdleCallback',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
  'Temporal',
];

export interface HeldClock {
  /** Moves the held clocks on by `ms`. */
  advance(ms: number): void;
  /** Puts the real clocks and timers back. */
  release(): void;
}

/**
 * Holds the clocks named (Date.now, performance.now) still until the test moves them, leaving
 * timers, sockets and process.hrtime real: for code that reads a clock (a cache's TTL, a breaker's
 * cool-down, a window of whole seconds) while the I/O around it must run as usual.
 */
export function holdClock(clocks: readonly Clock[] = ['Date', 'performance'], now?: number): HeldClock {
  jest.useFakeTimers({
    doNotFake: FAKEABLE.filter((api) => !(clocks as readonly string[]).includes(api)),
    ...(now === undefined ? {} : { now }),
  });
  return {
    advance: (ms) => jest.advanceTimersByTime(ms),
    release: () => jest.useRealTimers(),
  };
}
