import { afterAll, describe, expect, it } from '@jest/globals';
import { openStore, type NewVote, type Store } from '../../src/store/index.js';
import { migrate, MIGRATIONS } from '../../src/store/migrations.js';
import { openPostgres } from '../../src/store/postgres.js';
import type { DatabaseTarget } from '../../src/store/index.js';
import { slices, valueRows } from '../../src/store/sql.js';
import { openSqlite } from '../../src/store/sqlite.js';
import { storeBackends } from '../support/store-backends.js';

// Issue 47, item 7: a vote's weight was taken up to 2^53-1, and about 1,025 such votes overflowed
// SQLite's SUM, so the server's /leaderboard, /stats and announcements failed. No stored or new vote
// may make a server's counts fail, on either backend.

const HOUR = 3_600_000;
const SERVER = '111111111111111111';
const VOTER = '284102390141648897';
const OTHER = '593031275438718986';
/** The middle of a month, so "this month" holds every vote below. */
const T = Date.UTC(2026, 10, 15);
/** Just past where 2^53-1 each overflows a 64-bit sum. */
const FLOOD = 1_025;

const backends = storeBackends('bot-weights-');
const dbOf = (target: DatabaseTarget) =>
  target.kind === 'postgres' ? openPostgres(target.url) : openSqlite(target.file);

/** Every count the server's commands and announcements read, over the day of T. */
async function counts(store: Store) {
  const [members, bySite, perDay, perDayBySite, waiting] = await Promise.all([
    store.votesBetween(T - HOUR, T + 2 * HOUR),
    store.votesBetweenBySite(T - HOUR, T + 2 * HOUR),
    store.votesPerDay(T - HOUR, 1),
    store.votesPerDayBySite(T - HOUR, 1),
    store.waitingVotes(2_000),
  ]);
  const last = waiting.filter((vote) => vote.userId === VOTER).at(-1);
  return { members, bySite, perDay, perDayBySite, announced: { month: last?.monthVotes, total: last?.totalVotes } };
}

describe.each(backends)('vote weights on $name', (backend) => {
  const roots: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    for (const root of roots) await root.close();
  });

  it('records a weight of 2^53-1 as 2: 1,025 of them count 2,050 in every sum, and nothing fails', async () => {
    const root = await openStore(await backend.fresh());
    roots.push(root);
    const store = root.forServer(SERVER);
    const flood: NewVote[] = Array.from({ length: FLOOD }, (_, i) => ({
      userId: VOTER,
      at: T + i,
      double: true,
      source: 'webhook',
      periodEndsAt: T + i + 1,
      site: 'topgg',
      siteEventId: `flood-${i}`,
      weight: Number.MAX_SAFE_INTEGER,
    }));
    await store.acceptVotes(flood);
    await store.acceptVote({
      userId: OTHER,
      at: T,
      double: false,
      source: 'webhook',
      periodEndsAt: T + HOUR,
      weight: 0,
    });
    expect(await counts(store)).toEqual({
      members: [
        { userId: VOTER, votes: 2 * FLOOD },
        { userId: OTHER, votes: 1 },
      ],
      bySite: [
        { userId: VOTER, votes: 2 * FLOOD, bySite: { topgg: 2 * FLOOD } },
        { userId: OTHER, votes: 1, bySite: { guilds: 1 } },
      ],
      perDay: [2 * FLOOD + 1],
      perDayBySite: { guilds: [1], topgg: [2 * FLOOD] },
      announced: { month: 2 * FLOOD, total: 2 * FLOOD },
    });
  }, 60_000);

  it('brings weights a store of version 16 holds past 1 to 2 into them when it migrates', async () => {
    const target = await backend.fresh();
    const db = dbOf(target);
    await migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= 16),
    );
    // The most each backend's column could take: SQLite kept 2^53-1, PostgreSQL's INTEGER stops at 2^31-1.
    const huge = target.kind === 'postgres' ? 2 ** 31 - 1 : Number.MAX_SAFE_INTEGER;
    const rows = [
      ...Array.from({ length: FLOOD }, (_, i) => [VOTER, T + i, T + i, 'topgg', `old-${i}`, huge]),
      [OTHER, T, T, 'guilds', null, 0],
    ];
    for (const slice of slices(rows, 200))
      await db.query(
        `INSERT INTO votes (guild_id, is_double, source, user_id, voted_at, period_ends_at, site, site_event_id, weight)
         VALUES ${valueRows(slice.length, 6, 1, `'${SERVER}', 1, 'webhook'`)}`,
        slice.flat(),
      );
    await db.close();
    const root = await openStore(target);
    roots.push(root);
    const { members, perDay, announced } = await counts(root.forServer(SERVER));
    expect({ members, perDay, announced }).toEqual({
      members: [
        { userId: VOTER, votes: 2 * FLOOD },
        { userId: OTHER, votes: 1 },
      ],
      perDay: [2 * FLOOD + 1],
      announced: { month: 2 * FLOOD, total: 2 * FLOOD },
    });
  }, 60_000);
});
