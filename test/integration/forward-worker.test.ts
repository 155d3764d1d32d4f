import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ForwardWorker } from '../../src/forwarding/forward-worker.js';
import { openStore, type StoreRoot } from '../../src/store/index.js';
import { startForwardDestination, type ForwardDestination } from '../../tools/forward-destination.js';
import { capturedLog } from '../support/captured-log.js';
import { listVote } from '../support/list-vote.js';

// The one forwarding worker of a process (issue 51), in the test's process against a real store and
// two local destinations: each destination's deliveries in the ledger's order, one failing destination
// holding up none of the other's.

const SERVER = '111111111111111111';
const SECRET = 'vrf_worker_test_secret_0123456789';
const dir = mkdtempSync(path.join(tmpdir(), 'forward-worker-'));
let root: StoreRoot;
let good: ForwardDestination;
let down: ForwardDestination;
let worker: ForwardWorker;
const log = capturedLog([SECRET]);

const vote = (userId: string, at: number) => listVote(userId, 'topgg', at);

beforeAll(async () => {
  root = await openStore({ kind: 'sqlite', file: path.join(dir, 'bot.sqlite') });
  good = await startForwardDestination({ secret: SECRET });
  down = await startForwardDestination({ secret: SECRET });
  down.answer = () => ({ status: 503 });
  for (const [id, url] of [
    ['good', good.url],
    ['down', down.url],
  ] as const)
    await root.saveForwardDestination({
      guildId: SERVER,
      id,
      url,
      secret: 'sealed',
      secretEnd: '6789',
      fromEnvironment: false,
      createdAt: 1,
    });
  worker = new ForwardWorker({
    store: root,
    secretOf: () => SECRET,
    send: { allowPrivate: true },
    logger: log.logger,
  });
  worker.start();
});
afterAll(async () => {
  await worker?.stop();
  await Promise.all([good?.close(), down?.close()]);
  await root?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('ForwardWorker', () => {
  it("sends a destination's votes once each in the ledger's order while another keeps failing", async () => {
    const members = ['284102390141648897', '593031275438718986', '784102390141648812'];
    const now = Date.now();
    for (const [i, member] of members.entries()) await root.forServer(SERVER).acceptVotes([vote(member, now + i)]);
    worker.wake();
    await good.waitUntil((r) => r.length === 3, 10_000, 'three votes at the good destination');
    expect(good.received.map((r) => r.body.data.member_id)).toEqual(members);
    expect(good.received.every((r) => r.signed)).toBe(true);
    await down.waitUntil((r) => r.length >= 2, 10_000, 'the failing destination tried again');
    // Only its first vote is tried, again and again: the later ones wait behind it.
    expect(new Set(down.received.map((r) => r.body.data.member_id))).toEqual(new Set([members[0]]));
    expect(new Set(down.received.map((r) => r.deliveryId)).size).toBe(1);
    const downRow = (await root.forwardDestinations(SERVER)).find((d) => d.id === 'down');
    expect(downRow).toMatchObject({ id: 'down', waiting: 3, lastResult: { outcome: 'retrying', status: 503 } });
    expect(log.lines.filter((l) => l.msg === 'forwarded vote not delivered; trying again')).toHaveLength(1);
    expect(JSON.stringify(log.lines)).not.toContain(down.url);
  });
});
