import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openStore, type StoreRoot } from '../../src/store/index.js';
import { MAX_PENDING_WRITES } from '../../src/config/webhook-limits.js';
import type { Receiver } from '../../src/webhooks/receiver.js';
import { capturedLog, type LogLine } from '../support/captured-log.js';
import { pollUntil } from '../support/poll-until.js';
import { GUILDS_ANSWER_TIMEOUT_MS, reviewEvent } from '../../tools/guilds-webhook.js';
import { singleServerReceiver } from '../support/single-server-receiver.js';

const GUILD = '111111111111111111';
const TOKEN = 'a-webhook-token-of-some-length';
const AUTHOR = '284102390141648897';

/**
 * The real SQLite store with a fault put in front of addEvent: 'ok' passes through, 'stall' holds
 * each write until release(), 'throw' fails it (as a full disk or a dropped connection would).
 */
class FaultyStore {
  mode: 'ok' | 'stall' | 'throw' = 'ok';
  writesStarted = 0;
  readonly store: StoreRoot;
  private held: Array<() => void> = [];

  constructor(readonly real: StoreRoot) {
    this.store = new Proxy(real, {
      get: (target, key, receiver) => {
        if (key !== 'addEvent') return Reflect.get(target, key, receiver) as unknown;
        return async (...args: Parameters<StoreRoot['addEvent']>) => {
          this.writesStarted += 1;
          if (this.mode === 'throw') throw new Error('SQLITE_FULL: database or disk is full');
          if (this.mode === 'stall') await new Promise<void>((resolve) => this.held.push(resolve));
          return target.addEvent(...args);
        };
      },
    });
  }

  release(): void {
    this.mode = 'ok';
    for (const go of this.held.splice(0)) go();
  }
}

let dir: string;
let faulty: FaultyStore;
let receiver: Receiver;
let lines: LogLine[];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'bot-store-deadline-'));
  faulty = new FaultyStore(await openStore({ kind: 'sqlite', file: path.join(dir, 'bot.sqlite') }));
});
// A receiver per test: each starts with an empty refusal log.
beforeEach(async () => {
  const log = capturedLog([TOKEN]);
  lines = log.lines;
  receiver = await singleServerReceiver(GUILD, TOKEN, {
    store: faulty.store,
    logger: log.logger,
  });
});
afterEach(async () => {
  faulty.release();
  await receiver.close();
});
afterAll(async () => {
  await faulty?.real.close();
  rmSync(dir, { recursive: true, force: true });
});

const storedIds = async () => (await faulty.real.pendingEvents(10_000)).map((e) => (e.payload as { id?: string }).id);

async function post(body: unknown): Promise<{ status: number; retryAfter: string | null; ms: number }> {
  const started = performance.now();
  const response = await fetch(receiver.url, {
    method: 'POST',
    headers: { authorization: TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    // Guilds gives up after 5 s; so does the test, rather than waiting on a stalled store for ever.
    signal: AbortSignal.timeout(GUILDS_ANSWER_TIMEOUT_MS),
  });
  await response.arrayBuffer();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), ms: performance.now() - started };
}

describe('the receiver when the store cannot take a delivery', () => {
  it('answers 503 with retry-after before Guilds gives up (5 s) while the store stalls; the write may land later and the retry is stored again', async () => {
    faulty.mode = 'stall';
    const body = reviewEvent(GUILD, { id: 'rev_stalled', authorId: AUTHOR });
    const answer = await post(body);
    expect(answer).toMatchObject({ status: 503, retryAfter: expect.stringMatching(/^\d+$/) });
    // The store's deadline is 1 s; the bound leaves a loaded machine room inside Guilds' 5 s.
    expect(answer.ms).toBeLessThan(4_000);
    expect(await storedIds()).not.toContain('rev_stalled');

    faulty.release();
    await waitFor(async () => (await storedIds()).includes('rev_stalled'), 'the held write to land');
    // Guilds retries the 503: a second copy, which handling drops as a repeat.
    expect((await post(body)).status).toBe(200);
    expect((await storedIds()).filter((id) => id === 'rev_stalled')).toHaveLength(2);
  });

  it('answers 503, not 500, when the store fails, and logs it once at error level', async () => {
    faulty.mode = 'throw';
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await post(reviewEvent(GUILD, { id: `rev_f${i}`, authorId: AUTHOR }))).status);
    expect(statuses).toEqual([503, 503, 503, 503, 503]);
    const logged = lines.filter((l) => l.reason === 'store_unavailable');
    expect(logged).toEqual([expect.objectContaining({ level: 50, msg: 'webhook delivery refused' })]);
    expect(JSON.stringify(logged)).toContain('disk is full');
  });

  it(`queues at most ${MAX_PENDING_WRITES} writes behind a stalled store and answers the rest 503 without one`, async () => {
    // The cap is the subject, not the deadline: the writes that queue are given up on after 100 ms, not 1 s.
    await receiver.close();
    receiver = await singleServerReceiver(GUILD, TOKEN, {
      store: faulty.store,
      logger: capturedLog([TOKEN]).logger,
      storeDeadlineMs: 100,
    });
    faulty.mode = 'stall';
    const started = faulty.writesStarted;
    const answers = await Promise.all(
      Array.from({ length: MAX_PENDING_WRITES + 20 }, (_, i) =>
        post(reviewEvent(GUILD, { id: `rev_pile_${i}`, authorId: AUTHOR })),
      ),
    );
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([503]));
    expect(faulty.writesStarted - started).toBe(MAX_PENDING_WRITES);
  });
});

/** For stored rows and a fake store's counts: state with no event of its own. */
function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> {
  return pollUntil(check, what, { timeoutMs, everyMs: 20 });
}
