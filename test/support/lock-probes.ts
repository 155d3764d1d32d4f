import { jest } from '@jest/globals';
import pg from 'pg';

/**
 * The PostgreSQL store lock's probes begun so far, by any holder in this process: each probe
 * (src/store/postgres-lock.ts, takeShards) begins by taking the shared SHARD_COUNT lock. A standby
 * says once that it waits and then probes on a timer with no event of its own; counting the probes
 * the server was sent is how a test knows that several were refused, instead of sleeping.
 */
export function countLockProbes(): { count(): number; restore(): void } {
  const spy = jest.spyOn(pg.Client.prototype, 'query');
  return {
    count: () =>
      spy.mock.calls.filter(([text]) => typeof text === 'string' && text.includes('pg_advisory_lock_shared')).length,
    restore: () => spy.mockRestore(),
  };
}
