import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { hashApiKey, newApiKey } from '../../src/secrets/api-keys.js';
import { openStore, type StoreRoot } from '../../src/store/index.js';
import { KeyCheck } from '../../src/vote-api/key-check.js';
import { KeyRateLimiter } from '../../src/vote-api/rate-limit.js';
import { VoteApi } from '../../src/vote-api/vote-api.js';
import { startReceiver, type Receiver } from '../../src/webhooks/receiver.js';
import { apiClient } from '../support/api-answers.js';
import { capturedLog } from '../support/captured-log.js';

// The vote API when its store fails or stalls: a 503 with Retry-After, within the deadline, that
// the document describes; and its limit on a clock the test moves. A real receiver on 127.0.0.1
// and the real SQLite store, with a fault put in front of the reads.

const SERVER = '111111111111111111';
const MEMBER = '284102390141648897';
const DEADLINE_MS = 50;

describe('the vote API when the store fails, and its limit over time', () => {
  let root: StoreRoot;
  let receiver: Receiver;
  let api: ReturnType<typeof apiClient>;
  let fault: 'none' | 'throw' | 'stall' = 'none';
  let now = 1_000_000;
  const key = newApiKey();
  const log = capturedLog();

  beforeAll(async () => {
    root = await openStore({ kind: 'sqlite', file: ':memory:' });
    await root.addApiKey(
      { guildId: SERVER, name: 'bot', keyHash: hashApiKey(key), last4: 'abcd', createdAt: 1, createdBy: MEMBER },
      10,
    );
    const faulty = (read: () => Promise<never>) => (fault === 'throw' ? read() : new Promise<never>(() => undefined));
    const vote = new VoteApi({
      keys: new KeyCheck({ store: root }),
      ledger: (guildId) => {
        const store = root.forServer(guildId);
        if (fault === 'none') return store;
        const failing = () => faulty(() => Promise.reject(new Error('SQLITE_IOERR: disk I/O error')));
        return { ...store, runningVotesOf: failing, memberTotals: failing, streakOf: failing, ledgerPage: failing };
      },
      graceMs: () => 12 * 3_600_000,
      logger: log.logger,
      limiter: new KeyRateLimiter({ now: () => now }),
      storeDeadlineMs: DEADLINE_MS,
    });
    receiver = await startReceiver({
      host: '127.0.0.1',
      port: 0,
      path: '/webhook',
      targets: { serverFor: () => undefined, tokenFor: () => undefined },
      store: root,
      logger: log.logger,
      inbox: { wake: () => undefined },
      api: vote,
    });
    api = apiClient(receiver.url.replace(/\/webhook$/, ''));
  });
  afterAll(async () => {
    await receiver?.close();
    await root?.close();
  });

  it.each(['throw', 'stall'] as const)('answers 503 with Retry-After when the store reads %s', async (mode) => {
    fault = mode;
    const answer = await api.get(`/api/v1/guilds/${SERVER}/members/${MEMBER}/vote`, key);
    fault = 'none';
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(log.lines.some((line) => line.msg === 'vote API: the ledger could not be read; answered 503')).toBe(true);
    expect(JSON.stringify(log.lines)).not.toContain(key);
  });

  it('gives a key back one request a second after its burst is spent, on the clock it is given', async () => {
    const path = `/api/v1/guilds/${SERVER}/votes`;
    now += 60_000;
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await api.get(path, key)).status);
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
    now += 1_000;
    const back = await api.get(path, key);
    expect(back.status).toBe(200);
    expect(back.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await api.get(path, key)).status).toBe(429);
  });

  it('answers another method 405 and an unknown route under /api/v1 404, without a key', async () => {
    const base = receiver.url.replace(/\/webhook$/, '');
    const posted = await fetch(`${base}/api/v1/guilds/${SERVER}/votes`, { method: 'POST' });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET');
    expect((await fetch(`${base}/api/v1/nothing`)).status).toBe(404);
  });
});
