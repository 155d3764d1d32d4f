import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
    await idle.allClosed(2 * GUILDS_ANSWER_TIMEOUT_MS);
    // Each closed connection is counted once, by why it was closed.
    expect(count('connection_cap')).toBe(30);
    expect(count('timeout')).toBe(CAP);
    expect(await deliver(receiver.url, TOKEN, voteEvent(GUILD, VOTER))).toBe(200);
  });

  it('cuts a connection that sends nothing within seconds, not at a 30 s sweep', async () => {
    idle = await holdIdleConnections(receiver.url, 5);
    await idle.allClosed(GUILDS_ANSWER_TIMEOUT_MS);
    expect(Math.max(...idle.closedAfterMs())).toBeLessThan(GUILDS_ANSWER_TIMEOUT_MS);
    expect(count('timeout')).toBe(5);
  });

  it('answers 408 to a body slower than its declared length within seconds, storing nothing', async () => {
    const before = (await pendingIds()).length;
    const outcome = await trickleBody(receiver.url, TOKEN, { declaredBytes: 200, everyMs: 200, giveUpMs: 40_000 });
    expect(outcome.status).toBe(408);
    expect(outcome.ms).toBeLessThan(GUILDS_ANSWER_TIMEOUT_MS);
    expect(count('timeout')).toBe(1);
    expect(await pendingIds()).toHaveLength(before);
  });

  it("keeps Guilds' deliveries working on one kept-alive connection across pauses, and with Connection: close", async () => {
    const ids = ['rev_keep_1', 'rev_keep_2', 'rev_keep_3'];
    const statuses: number[] = [];
    for (const [i, id] of ids.entries()) {
      // Longer than the header timeout: an idle kept-alive connection waits on the keep-alive timeout only.
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 2_500));
      statuses.push(await deliver(receiver.url, TOKEN, reviewEvent(GUILD, { id, authorId: VOTER })));
    }
    statuses.push(await postClosing(receiver.url, reviewEvent(GUILD, { id: 'rev_close', authorId: VOTER })));
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect(await pendingIds()).toEqual(expect.arrayContaining([...ids, 'rev_close']));
    expect(refused).toEqual([]);
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
