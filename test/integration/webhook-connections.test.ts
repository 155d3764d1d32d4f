import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CONNECTIONS_CHECK_MS, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '../../src/config/webhook-limits.js';
import { openStore, type StoreRoot } from '../../src/store/index.js';
import type { RefusalReason } from '../../src/webhooks/refusals.js';
import type { Receiver } from '../../src/webhooks/receiver.js';
import { deliver, GUILDS_ANSWER_TIMEOUT_MS, reviewEvent, voteEvent } from '../../tools/guilds-webhook.js';
import { holdIdleConnections, trickleBody, type IdleConnections } from '../support/stranger.js';
import { singleServerReceiver } from '../support/single-server-receiver.js';

const GUILD = '111111111111111111';
const TOKEN = 'a-webhook-token-of-some-length';
const VOTER = '284102390141648897';
const CAP = 20;
/**
 * The receiver's bounds scaled down (2 s headers, 3 s request, a sweep each 0.5 s in production):
 * the mechanism is the same, each case takes a fraction of a second. One case keeps the real ones.
 */
const TIMEOUTS = { headersMs: 500, requestMs: 750, checkMs: 50 };

let dir: string;
let store: StoreRoot;
let receiver: Receiver;
const refused: RefusalReason[] = [];
let idle: IdleConnections | undefined;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'bot-receiver-'));
  store = await openStore({ kind: 'sqlite', file: path.join(dir, 'bot.sqlite') });
  receiver = await singleServerReceiver(GUILD, TOKEN, {
    store,
    maxConnections: CAP,
    onRefused: (reason) => refused.push(reason),
    timeouts: TIMEOUTS,
  });
});
afterEach(() => {
  idle?.destroy();
  idle = undefined;
  refused.length = 0;
});
afterAll(async () => {
  await receiver?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const count = (reason: RefusalReason) => refused.filter((r) => r === reason).length;
const pendingIds = async () => (await store.pendingEvents(10_000)).map((e) => (e.payload as { id?: string }).id);

describe('what a stranger can hold on the receiver', () => {
  it('closes connections past the cap at once, and the ones it keeps once they stay silent', async () => {
    idle = await holdIdleConnections(receiver.url, CAP + 30);
    await idle.allClosed(GUILDS_ANSWER_TIMEOUT_MS);
    // Each closed connection is counted once, by why it was closed.
    expect(count('connection_cap')).toBe(30);
    expect(count('timeout')).toBe(CAP);
    expect(await deliver(receiver.url, TOKEN, voteEvent(GUILD, VOTER))).toBe(200);
  });

  it('cuts a connection that sends nothing within seconds, not at a 30 s sweep', async () => {
    // The production bounds, the subject here: a receiver of its own without TIMEOUTS.
    const real = await singleServerReceiver(GUILD, TOKEN, { store, onRefused: (reason) => refused.push(reason) });
    try {
      idle = await holdIdleConnections(real.url, 5);
      await idle.allClosed(GUILDS_ANSWER_TIMEOUT_MS);
      expect(Math.max(...idle.closedAfterMs())).toBeLessThan(GUILDS_ANSWER_TIMEOUT_MS);
      expect(Math.min(...idle.closedAfterMs())).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
      expect(count('timeout')).toBe(5);
    } finally {
      await real.close();
    }
  });

  it('answers 408 to a body slower than its declared length within seconds, storing nothing', async () => {
    const before = (await pendingIds()).length;
    const outcome = await trickleBody(receiver.url, TOKEN, { declaredBytes: 200, everyMs: 50, giveUpMs: 40_000 });
    expect(outcome.status).toBe(408);
    expect(outcome.ms).toBeGreaterThanOrEqual(TIMEOUTS.requestMs - 50);
    expect(outcome.ms).toBeLessThan(GUILDS_ANSWER_TIMEOUT_MS);
    // The production bound and its sweep answer inside Guilds' 5 s too.
    expect(REQUEST_TIMEOUT_MS + CONNECTIONS_CHECK_MS).toBeLessThan(GUILDS_ANSWER_TIMEOUT_MS);
    expect(count('timeout')).toBe(1);
    expect(await pendingIds()).toHaveLength(before);
  });

  it("keeps Guilds' deliveries working on one kept-alive connection across pauses, and with Connection: close", async () => {
    const ids = ['rev_keep_1', 'rev_keep_2', 'rev_keep_3'];
    const statuses: number[] = [];
    for (const [i, id] of ids.entries()) {
      if (i > 0) {
        // A pause longer than the header timeout: a connection opened as it starts, sending nothing,
        // is cut by the sweep once the timeout has passed. The kept-alive one, idle as long, must
        // wait on the keep-alive timeout only.
        const sentinel = await holdIdleConnections(receiver.url, 1);
        await sentinel.allClosed(GUILDS_ANSWER_TIMEOUT_MS);
      }
      statuses.push(await deliver(receiver.url, TOKEN, reviewEvent(GUILD, { id, authorId: VOTER })));
    }
    statuses.push(await postClosing(receiver.url, reviewEvent(GUILD, { id: 'rev_close', authorId: VOTER })));
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect(await pendingIds()).toEqual(expect.arrayContaining([...ids, 'rev_close']));
    // The two silent connections only, never a delivery's.
    expect(refused).toEqual(['timeout', 'timeout']);
  });
});

/** One delivery on a connection of its own that the sender asks to close. */
function postClosing(url: string, body: unknown): Promise<number> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: {
          authorization: TOKEN,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(data),
          connection: 'close',
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}
