import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EventRetention, HANDLED_EVENTS_KEPT_MS } from '../../src/runtime/event-retention.js';
import { InboxWorker } from '../../src/runtime/inbox-worker.js';
import { openStore, type DatabaseTarget, type StoreRoot } from '../../src/store/index.js';
import { openPostgres } from '../../src/store/postgres.js';
import type { Db } from '../../src/store/sql.js';
import { openSqlite } from '../../src/store/sqlite.js';
import { shardOf } from '../../src/shards/ownership.js';
import { capturedLog } from '../support/captured-log.js';
import { pollUntil } from '../support/poll-until.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';

// Issue 35, item 2: handled webhook events are dropped after their age, in bounded deletes, so the
// store follows the number of servers; unhandled ones never go, and what /setup status shows stays.

const DAY = 24 * 3_600_000;
const A = '111111111111111111';
const B = '222222222222222222';
const T = Date.UTC(2026, 10, 15);

const dirs: string[] = [];
let server: TestPostgres | undefined;

const backends = [
  {
    name: 'SQLite',
    async fresh(): Promise<{ target: DatabaseTarget; raw: () => Db }> {
      const dir = mkdtempSync(path.join(tmpdir(), 'bot-retention-'));
      dirs.push(dir);
      const file = path.join(dir, 'bot.sqlite');
      return { target: { kind: 'sqlite', file }, raw: () => openSqlite(file) };
    },
  },
  {
    name: 'PostgreSQL',
    async fresh(): Promise<{ target: DatabaseTarget; raw: () => Db }> {
      server ??= await startPostgres();
      const url = await server.createDatabase();
      return { target: { kind: 'postgres', url }, raw: () => openPostgres(url) };
    },
  },
];

afterAll(async () => {
  await server?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 30_000);

async function count(raw: () => Db, where = 'TRUE'): Promise<number> {
  const db = raw();
  try {
    const [row] = await db.query(`SELECT COUNT(*) AS n FROM events WHERE ${where}`);
    return Number(row!.n);
  } finally {
    await db.close();
  }
}

/** Stores an event received at `at`, handled `handledAfter` later (never if undefined). */
async function event(root: StoreRoot, guildId: string, at: number, handledAfter: number | undefined): Promise<number> {
  const id = await root.addEvent(guildId, 'vote', { guildId, at }, at);
  if (handledAfter !== undefined) await root.markEventHandled(id, at + handledAfter);
  return id;
}

describe.each(backends)('the events retention pass on $name', (backend) => {
  it('drops handled events past their age; recent, unhandled, retried and each server newest stay', async () => {
    const { target, raw } = await backend.fresh();
    const root = await openStore(target);
    try {
      const now = T + 60 * DAY;
      const oldHandled = [
        await event(root, A, T, 1_000),
        await event(root, A, T + DAY, 1_000),
        await event(root, A, now - 8 * DAY, 1_000),
      ];
      const unhandled = await event(root, A, T - 30 * DAY, undefined);
      const retried = await event(root, A, T + 2 * DAY, undefined);
      await root.deferEvent(retried, 12, now + 60_000);
      const recent = await event(root, A, now - DAY, 1_000);
      // B's only event is old and handled, but the newest B has: /setup status shows when it came.
      const onlyOfB = await event(root, B, T, 1_000);
      await root.recordDeliveries(
        [
          { guildId: A, at: now - DAY, event: 'vote', outcome: 'stored' },
          { guildId: B, at: T, event: 'vote', outcome: 'stored' },
        ],
        10,
      );
      const before = {
        a: await root.forServer(A).lastDeliveryAt(),
        b: await root.forServer(B).lastDeliveryAt(),
        logA: await root.forServer(A).recentDeliveries(10),
        logB: await root.forServer(B).recentDeliveries(10),
      };
      const { logger, lines } = capturedLog();
      const retention = new EventRetention({ store: root, logger });
      expect(await retention.passIfDue(now)).toBe(oldHandled.length);

      const left = await root.pendingEvents(100);
      expect(left.map((e) => e.id).sort((x, y) => x - y)).toEqual([unhandled, retried]);
      expect(await count(raw)).toBe(4);
      expect(await count(raw, `id IN (${recent}, ${onlyOfB})`)).toBe(2);
      expect(await root.forServer(A).lastDeliveryAt()).toBe(before.a);
      expect(await root.forServer(B).lastDeliveryAt()).toBe(before.b);
      expect(await root.forServer(A).recentDeliveries(10)).toEqual(before.logA);
      expect(await root.forServer(B).recentDeliveries(10)).toEqual(before.logB);
      expect(lines.filter((l) => l.msg.startsWith('dropped handled webhook events'))).toEqual([
        expect.objectContaining({ dropped: 3, keptDays: 7 }),
      ]);

      // Not due again for an hour; then nothing to drop, and no line.
      await event(root, A, now - 8 * DAY, 1_000);
      expect(await retention.passIfDue(now + 1_000)).toBe(0);
      expect(await retention.passIfDue(now + 3_600_000)).toBe(1);
      expect(await retention.passIfDue(now + 2 * 3_600_000)).toBe(0);
      expect(lines.filter((l) => l.msg.startsWith('dropped handled webhook events'))).toHaveLength(2);
    } finally {
      await root.close();
    }
  }, 60_000);

  it("drops only the events of servers on this process's shards", async () => {
    const { target, raw } = await backend.fresh();
    const root = await openStore(target);
    try {
      const now = T + 30 * DAY;
      // Two servers on different shards of 4, each with an old handled event and a newer one.
      const mine = A;
      const theirs = ['222222222222222222', '333333333333333333', '444444444444444444'].find(
        (id) => shardOf(id, 4) !== shardOf(mine, 4),
      )!;
      for (const guildId of [mine, theirs]) {
        await event(root, guildId, T, 1_000);
        await event(root, guildId, now, 1_000);
      }
      const shards = { count: 4, ids: [shardOf(mine, 4)] };
      expect(await root.dropHandledEvents(now - DAY, 100, shards)).toBe(1);
      expect(await count(raw, `guild_id = '${mine}'`)).toBe(1);
      expect(await count(raw, `guild_id = '${theirs}'`)).toBe(2);
    } finally {
      await root.close();
    }
  }, 60_000);

  it('keeps the rows after many deliveries bounded by servers and the age, not by deliveries made', async () => {
    const { target, raw } = await backend.fresh();
    const root = await openStore(target);
    try {
      const servers = Array.from({ length: 20 }, (_, i) => String(300000000000000000n + BigInt(i)));
      const perDay = 10;
      const retention = new EventRetention({ store: root, logger: capturedLog().logger });
      const rowsAfter: number[] = [];
      for (let day = 0; day < 40; day++) {
        const at = T + day * DAY;
        const ids = await root.addEvents(
          servers.flatMap((guildId) =>
            Array.from({ length: perDay }, (_, i) => ({ guildId, kind: 'vote', payload: { i }, receivedAt: at + i })),
          ),
        );
        await root.markEventsHandled(ids, at + perDay);
        await root.recordDeliveries(
          servers.map((guildId) => ({ guildId, at, event: 'vote', outcome: 'stored' as const })),
          10,
        );
        // Passes in bounded deletes until the backlog is gone.
        while ((await retention.passIfDue(at + DAY - 1)) > 0 && retention.dueAt <= at + DAY - 1);
        rowsAfter.push(await count(raw));
      }
      const delivered = 40 * servers.length * perDay;
      const bound = servers.length * perDay * (HANDLED_EVENTS_KEPT_MS / DAY + 1);
      expect(rowsAfter.at(-1)).toBeLessThanOrEqual(bound);
      expect(rowsAfter.at(-1)).toBeLessThan(delivered / 4);
      // Steady: the last weeks hold as many rows as the first full week did.
      expect(new Set(rowsAfter.slice(10))).toEqual(new Set([rowsAfter[10]]));
    } finally {
      await root.close();
    }
  }, 120_000);
});

describe('the inbox worker runs the pass for the servers this process owns', () => {
  it('drops old handled events after a drain, with one log line', async () => {
    const { target, raw } = await backends[0]!.fresh();
    const root = await openStore(target);
    try {
      const now = T + 30 * DAY;
      await event(root, A, T, 1_000);
      await event(root, A, T + DAY, 1_000);
      const { logger, lines } = capturedLog();
      const worker = new InboxWorker({ store: root, logger, handler: { handle: async () => {} }, now: () => now });
      await event(root, A, now, undefined);
      worker.wake();
      // The pass runs after the drain, with nothing to wait on but the rows it leaves.
      await pollUntil(async () => (await count(raw)) <= 1, 'the old handled events dropped', { everyMs: 20 });
      await worker.stop();
      expect(await count(raw)).toBe(1);
      expect(await count(raw, 'handled_at IS NOT NULL')).toBe(1);
      expect(lines.filter((l) => l.msg.startsWith('dropped handled webhook events'))).toEqual([
        expect.objectContaining({ dropped: 2 }),
      ]);
    } finally {
      await root.close();
    }
  }, 30_000);
});
