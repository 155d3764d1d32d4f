import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { VoteMirror } from '../../src/mirror/vote-mirror.js';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { openStore, type StoreRoot } from '../../src/store/index.js';
import { capturedLog } from '../support/captured-log.js';
import { pollUntil } from '../support/poll-until.js';
import { nextSnowflake } from '../../tools/discord-standin/index.js';
import { quietVotes } from '../support/quiet-votes.js';
import { fastClient } from '../support/service.js';

/*
 * The mirror's polls run on a DrainLoop woken at its own times: the regular polls pollMs apart,
 * and a failed poll's retry, sooner. A regular poll that falls while one runs shares it (as the
 * setInterval before did), and stop() ends them all.
 */
let sandbox: Sandbox;
let root: StoreRoot;
beforeAll(async () => {
  sandbox = await startSandbox();
  root = await openStore({ kind: 'sqlite', file: ':memory:' });
});
afterEach(() => sandbox.reset());
afterAll(async () => {
  await root?.close();
  await sandbox?.close();
});

/** A log line or a request the sandbox saw: state with no event of its own. */
const until = (done: () => boolean, ms: number, what: string) => pollUntil(done, what, { timeoutMs: ms, everyMs: 10 });
const polls = () => sandbox.requests.filter((request) => request.route === 'listVotes');

function mirror(pollMs: number, totalBudgetMs = 5_000, retries?: number) {
  const log = capturedLog();
  const api = fastClient(sandbox, {
    attemptTimeoutMs: 3_000,
    totalBudgetMs,
    ...(retries === undefined ? {} : { retries }),
  });
  // A poll starts with a call of the client's, made at once: counted at the call, before any I/O.
  let polled = 0;
  const listVotes = api.listVotes.bind(api);
  api.listVotes = (...args) => {
    polled += 1;
    return listVotes(...args);
  };
  const votes = new VoteMirror({
    store: root.forServer(nextSnowflake()),
    api,
    logger: log.logger,
    pollMs,
    now: Date.now,
    votes: quietVotes(),
  });
  return { votes, lines: log.lines, polled: () => polled };
}

describe('the vote mirror polls', () => {
  it('share a regular poll that falls while one runs: the next starts at the first regular time after it', async () => {
    // Polls 300 ms apart that take 700 ms: the ones at 300 and 600 fall inside the first, the next is at 900.
    sandbox.setFault('listVotes', { latencyMs: 700 });
    const { votes } = mirror(300);
    const startedAt = Date.now();
    votes.start();
    try {
      await until(() => polls().length >= 2, 5_000, 'the second poll');
      // Seen at most 10 ms after the service got it; a poll run right after the first would be seen near 700.
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(900);
    } finally {
      await votes.stop();
    }
  });

  it('try a failed poll again well before the next regular one, and log the attempt and the wait', async () => {
    sandbox.setFault('listVotes', { status: 400 });
    const { votes, lines } = mirror(60_000, 300);
    votes.start();
    try {
      const failed = () => lines.filter((line) => line.msg.startsWith('could not poll the active votes'));
      await until(() => failed().length >= 1, 5_000, 'the failed poll');
      expect(failed()[0]).toMatchObject({ attempt: 1 });
      expect(failed()[0]!.retryInMs as number).toBeLessThanOrEqual(1_000);
      sandbox.clearFaults();
      await until(() => lines.some((line) => line.msg === 'vote mirror updated'), 3_000, 'the retried poll');
    } finally {
      await votes.stop();
    }
  });

  it('end at stop(): no poll starts after it, not even a retry that was waiting', async () => {
    // The mirror's timers (the regular polls, the retry) run on jest's clock, moved past them all
    // after the stop; the sandbox answers at once, over real sockets. The client tries once, so the
    // failed poll waits on no timer of the client's.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'performance'] });
    try {
      sandbox.setFault('listVotes', { status: 400 });
      const { votes, lines, polled } = mirror(200, 300, 0);
      votes.start();
      await jest.advanceTimersByTimeAsync(0);
      await until(() => lines.some((line) => line.msg.startsWith('could not poll')), 5_000, 'the failed poll');
      await votes.stop();
      const seen = polled();
      await jest.advanceTimersByTimeAsync(10_000);
      expect(polled()).toBe(seen);
      expect(polls()).toHaveLength(seen);
    } finally {
      jest.useRealTimers();
    }
  });
});
