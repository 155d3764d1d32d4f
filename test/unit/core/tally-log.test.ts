import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { TallyLog } from '../../../src/core/tally-log.js';
import { capturedLog } from '../../support/captured-log.js';

beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  jest.useRealTimers();
});

describe('a tally log', () => {
  it('writes the first event at once and counts the rest of the minute into one line', async () => {
    const { logger, lines } = capturedLog();
    const tally = new TallyLog<'path' | 'method'>(logger, { level: 'warn', msg: 'refused' });
    for (let i = 0; i < 500; i += 1) tally.count(i % 2 === 0 ? 'path' : 'method', `request ${i}`);
    await jest.advanceTimersByTimeAsync(59_000);
    expect(lines).toEqual([expect.objectContaining({ msg: 'refused', counts: { path: 1 } })]);

    await jest.advanceTimersByTimeAsync(1_000);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({
      level: 40,
      counts: { path: 249, method: 250 },
      examples: { path: 'request 2', method: 'request 1' },
    });
  });

  it('writes nothing in a quiet minute, then the next event at once', async () => {
    const { logger, lines } = capturedLog();
    const tally = new TallyLog<'global'>(logger, { level: 'info', msg: 'paced' });
    tally.count('global');
    await jest.advanceTimersByTimeAsync(5 * 60_000);
    tally.count('global');
    expect(lines.map((line) => line.counts)).toEqual([{ global: 1 }, { global: 1 }]);
  });

  it('writes what it counted when closed, and nothing after', async () => {
    const { logger, lines } = capturedLog();
    const tally = new TallyLog<'route'>(logger, { level: 'info', msg: 'paced' });
    tally.count('route');
    tally.count('route');
    tally.count('route');
    tally.close();
    tally.count('route');
    await jest.advanceTimersByTimeAsync(120_000);
    expect(lines.map((line) => line.counts)).toEqual([{ route: 1 }, { route: 2 }]);
  });
});
