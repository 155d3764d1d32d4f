import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openStore, type Store, type StoreRoot } from '../../src/store/index.js';
import { migrate, MIGRATIONS } from '../../src/store/migrations.js';
import { openPostgres } from '../../src/store/postgres.js';
import { openSqlite } from '../../src/store/sqlite.js';
import { graceMs } from '../../src/streaks/streak.js';
import { StreakIndex } from '../../src/runtime/streak-index.js';
import { storeBackends } from '../support/store-backends.js';

const HOUR = 3_600_000;
const PERIOD = 12 * HOUR;
const GRACE = graceMs(undefined);
const SERVER = '111111111111111111';
const KEEPER = '284102390141648897';
const BREAKER = '593031275438718986';
const NEWCOMER = '700000000000000009';
/** A fixed point in the middle of a month, so "this month" holds every vote below. */
const T = Date.UTC(2026, 10, 15);

const backends = storeBackends('bot-streaks-');

const vote = (userId: string, at: number, extra: { double?: boolean; source?: 'webhook' | 'seed' } = {}) => ({
  userId,
  at,
  double: extra.double ?? false,
  source: extra.source ?? ('webhook' as const),
  periodEndsAt: at + PERIOD,
});

describe.each(backends)('vote streaks on $name', (backend) => {
  let root: StoreRoot;
  let store: Store;
  beforeAll(async () => {
    root = await openStore(await backend.fresh());
    store = root.forServer(SERVER);
  }, 60_000);
  afterAll(() => root?.close());

  it('counts periods in a row while each vote comes within the grace after the last ran out, and starts again after', async () => {
    // Three periods in a row: each vote 1 h, then 11 h, after the last one ran out.
    await store.acceptVote(vote(KEEPER, T));
    await store.acceptVote(vote(KEEPER, T + PERIOD + HOUR));
    await store.acceptVote(vote(KEEPER, T + 2 * PERIOD + 12 * HOUR));
    expect(await store.streakOf(KEEPER, T + 2 * PERIOD + 12 * HOUR, GRACE)).toBe(3);
    // Alive until the last period ran out plus the grace; gone after.
    const lastEnds = T + 3 * PERIOD + 12 * HOUR;
    expect(await store.streakOf(KEEPER, lastEnds + GRACE, GRACE)).toBe(3);
    expect(await store.streakOf(KEEPER, lastEnds + GRACE + 1, GRACE)).toBe(0);
    // A vote 13 h after the period ran out: a new streak.
    await store.acceptVote(vote(BREAKER, T));
    await store.acceptVote(vote(BREAKER, T + PERIOD + 13 * HOUR));
    expect(await store.streakOf(BREAKER, T + PERIOD + 13 * HOUR, GRACE)).toBe(1);
    // A wider grace (the server's setting) keeps it.
    await store.acceptVote({ ...vote(NEWCOMER, T) });
    await store.acceptVote({ ...vote(NEWCOMER, T + PERIOD + 13 * HOUR), streakGraceMs: 24 * HOUR });
    expect(await store.streakOf(NEWCOMER, T + PERIOD + 13 * HOUR, 24 * HOUR)).toBe(2);
    const index = new StreakIndex(store, GRACE);
    expect(await index.alive(T + 2 * PERIOD + 12 * HOUR)).toEqual([
      { userId: KEEPER, streak: 3 },
      { userId: NEWCOMER, streak: 2 },
      { userId: BREAKER, streak: 1 },
    ]);
    expect(await index.streakOf(KEEPER, lastEnds + GRACE)).toBe(3);
    expect(await index.streakOf(KEEPER, lastEnds + GRACE + 1)).toBe(0);
    expect(await store.streakOf('800000000000000001', T, GRACE)).toBe(0);
  });

  it("gives each waiting vote its streak, whether it is the member's first, and their counts up to it", async () => {
    const waiting = await store.waitingVotes(20);
    const keeper = waiting.filter((v) => v.userId === KEEPER);
    expect(keeper.map((v) => [v.streak, v.first, v.monthVotes, v.totalVotes])).toEqual([
      [1, true, 1, 1],
      [2, false, 2, 2],
      [3, false, 3, 3],
    ]);
    const at = T + 10 * PERIOD;
    await store.acceptVote(vote(BREAKER, at, { double: true }));
    const [double] = (await store.waitingVotes(20)).filter((v) => v.userId === BREAKER && v.at === at);
    expect(double).toMatchObject({ first: false, monthVotes: 4, totalVotes: 4, double: true, streak: 1 });
  });

  it('rebuilds the streaks of votes recorded before migration 7, with the default grace', async () => {
    const target = await backend.fresh();
    const db = target.kind === 'postgres' ? openPostgres(target.url) : openSqlite(target.file);
    await migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= 6),
    );
    const insert = (userId: string, at: number) =>
      db.query(
        `INSERT INTO votes (guild_id, user_id, voted_at, is_double, source, period_ends_at, announced_at)
         VALUES ($1, $2, $3, 0, 'webhook', $4, $3)`,
        [SERVER, userId, at, at + PERIOD],
      );
    for (const at of [T, T + PERIOD + HOUR, T + 2 * PERIOD + 2 * HOUR]) await insert(KEEPER, at);
    for (const at of [T, T + PERIOD + 13 * HOUR]) await insert(BREAKER, at);
    await db.close();
    const migrated = await openStore(target);
    try {
      expect(await migrated.schemaVersion()).toBeGreaterThanOrEqual(7);
      const now = T + 3 * PERIOD + 2 * HOUR;
      const rebuilt = migrated.forServer(SERVER);
      expect(await new StreakIndex(rebuilt, GRACE).alive(now)).toEqual([
        { userId: KEEPER, streak: 3 },
        { userId: BREAKER, streak: 1 },
      ]);
      // A vote after the migration goes on from the rebuilt streak.
      const index = new StreakIndex(rebuilt, GRACE);
      expect(await index.streakOf(KEEPER, now)).toBe(3);
      await rebuilt.acceptVote(vote(KEEPER, now));
      expect(await index.streakOf(KEEPER, now)).toBe(3);
      // A recorded vote makes the index read again.
      index.changed();
      expect(await index.streakOf(KEEPER, now)).toBe(4);
    } finally {
      await migrated.close();
    }
  });
});
