import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openStore, type StandbyReason, type StoreLock, type StoreRoot } from '../../src/store/index.js';
import { holdPostgresLock } from '../../src/store/postgres-lock.js';
import type { ShardSet } from '../../src/shards/ownership.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';
import { countLockProbes } from '../support/lock-probes.js';
import { pollUntil } from '../support/poll-until.js';

const timing = { pollMs: 50, regainMs: 100, heartbeatMs: 200, reconnect: { baseMs: 50, capMs: 200 } };
let server: TestPostgres;
const probes = countLockProbes();
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(() => {
  probes.restore();
  return server?.stop();
}, 30_000);

/** A holder of `shards`, or undefined while it stands by; its standby reasons are kept. */
function holder(url: string, shards: ShardSet) {
  const reasons: StandbyReason[] = [];
  const stop = new AbortController();
  const state: { lock?: StoreLock; reasons: StandbyReason[]; stop(): void } = {
    reasons,
    stop: () => stop.abort(new Error('test over')),
  };
  const waiting = holdPostgresLock(
    url,
    { shards, signal: stop.signal, onStandby: (r) => reasons.push(r), onLost: () => undefined },
    timing,
  ).then(
    (lock) => (state.lock = lock),
    () => undefined,
  );
  return Object.assign(state, { waiting });
}

/**
 * A standby has said why it waits, and two more of its probes (every pollMs) were refused: a third
 * began after them. The reason and the probes are state with no event of their own.
 */
async function standingBy(standby: { reasons: StandbyReason[] }): Promise<void> {
  await pollUntil(() => standby.reasons.length > 0, 'the standby reason', { everyMs: 10 });
  const from = probes.count();
  await pollUntil(() => probes.count() >= from + 3, 'two more refused probes', { everyMs: 10 });
}
const on = (count: number, ...ids: number[]): ShardSet => ({ count, ids });

describe('per-shard locks on PostgreSQL', () => {
  // PGlite serves every connection from one session, so one holder cannot keep another out there.
  const realServer = () => server.kind === 'postgres';

  it('lets processes with different shards act at once', async () => {
    if (!realServer()) return;
    const url = await server.createDatabase();
    const [a, b] = [holder(url, on(4, 0, 1)), holder(url, on(4, 2, 3))];
    await Promise.all([a.waiting, b.waiting]);
    expect(a.lock && b.lock).toBeDefined();
    await Promise.all([a.lock!.release(), b.lock!.release()]);
  });

  it('keeps a process whose shards overlap a holder standing by, holding none of them meanwhile', async () => {
    if (!realServer()) return;
    const url = await server.createDatabase();
    const first = holder(url, on(4, 0, 1));
    await first.waiting;
    const overlapping = holder(url, on(4, 1, 2));
    await standingBy(overlapping);
    expect(overlapping.lock).toBeUndefined();
    expect(overlapping.reasons[0]).toEqual({
      kind: 'held',
      detail: expect.stringMatching(/another process holds the store for some of shards 1-2/),
    });
    // Shard 2 is free for a third process: the standby did not keep it while waiting for shard 1.
    const third = holder(url, on(4, 2, 3));
    await third.waiting;
    expect(third.lock).toBeDefined();
    await third.lock!.release();
    await first.lock!.release();
    await overlapping.waiting;
    expect(overlapping.lock).toBeDefined();
    await overlapping.lock!.release();
  });

  it('keeps a process with another SHARD_COUNT standing by, naming SHARD_COUNT', async () => {
    if (!realServer()) return;
    const url = await server.createDatabase();
    const first = holder(url, on(2, 0));
    await first.waiting;
    const other = holder(url, on(4, 3));
    await standingBy(other);
    expect(other.lock).toBeUndefined();
    expect(other.reasons[0]).toMatchObject({ kind: 'count' });
    expect(other.reasons[0]?.detail).toMatch(/SHARD_COUNT 2, this one with 4.*set one SHARD_COUNT everywhere/);
    await first.lock!.release();
    await other.waiting;
    expect(other.lock).toBeDefined();
    await other.lock!.release();
  });

  it('keeps a one-process bot (no shards given) and a process running shard 0 of 1 apart', async () => {
    if (!realServer()) return;
    const url = await server.createDatabase();
    const whole = await holdPostgresLock(url, { onStandby: () => undefined, onLost: () => undefined }, timing);
    const zero = holder(url, on(1, 0));
    await standingBy(zero);
    expect(zero.lock).toBeUndefined();
    // Stopped, and done stopping (its probe may be out), before the holder lets go.
    zero.stop();
    await zero.waiting;
    expect(zero.lock).toBeUndefined();
    await whole.release();
  });
});

describe('processes starting together on one new PostgreSQL database', () => {
  it('migrate it once between them, none failing', async () => {
    const url = await server.createDatabase();
    const roots = await Promise.all(Array.from({ length: 4 }, () => openStore({ kind: 'postgres', url })));
    const versions = await Promise.all(roots.map((root) => root.schemaVersion()));
    expect(new Set(versions).size).toBe(1);
    await Promise.all(roots.map((root) => root.close()));
  });
});

describe.each(['sqlite', 'postgres'] as const)('stored webhook events by shard (%s)', (backend) => {
  let root: StoreRoot;
  beforeAll(async () => {
    root = await openStore(
      backend === 'sqlite'
        ? { kind: 'sqlite', file: ':memory:' }
        : { kind: 'postgres', url: await server.createDatabase() },
    );
  });
  afterAll(() => root?.close());

  const guildOn = (shard: number, count: number, n: number) => String((BigInt(n * count + shard) << 22n) + 7n);

  it("hands a process only its shards' events, and tells when its next one is due", async () => {
    const ids = [0, 1, 2, 3].map((shard) => guildOn(shard, 4, 1_000_000_000 + shard));
    for (const guildId of ids) await root.addEvent(guildId, 'vote', { guildId }, 1);
    const of = async (shards?: ShardSet) => (await root.pendingEvents(100, undefined, shards)).map((e) => e.guildId);
    expect(await of(on(4, 1, 3))).toEqual([ids[1], ids[3]]);
    expect(await of(on(4, 0))).toEqual([ids[0]]);
    expect(await of(on(4, 0, 1, 2, 3))).toEqual(ids);
    expect(await of()).toEqual(ids);
    const [onTwo] = await root.pendingEvents(1, undefined, on(4, 2));
    await root.deferEvent(onTwo!.id, 1, 5_000);
    expect(await root.nextEventDue(on(4, 2))).toBe(5_000);
    expect(await root.nextEventDue(on(4, 1))).toBe(0);
  });
});
