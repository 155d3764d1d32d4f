import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openStore, type NewVote, type Store, type StoreRoot } from '../../src/store/index.js';
import { migrate, MIGRATIONS } from '../../src/store/migrations.js';
import { openPostgres } from '../../src/store/postgres.js';
import { openSqlite } from '../../src/store/sqlite.js';
import { storeBackends } from '../support/store-backends.js';

// One ledger per member over every list a server is on (issue 34): each vote keeps its list, a
// repeat from the same list is dropped, a vote on another list is a new one, and counts sum weights.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SERVER = '111111111111111111';
const OTHER_SERVER = '222222222222222222';
const ALICE = '284102390141648897';
const BOB = '593031275438718986';
/** The middle of a month, so "this month" holds every vote below. */
const T = Date.UTC(2026, 10, 15);

const backends = storeBackends('bot-ledger-');

/** A vote on `site` at `at` running `hours`. */
const vote = (userId: string, site: string, at: number, hours: number, extra: Partial<NewVote> = {}): NewVote => ({
  userId,
  at,
  double: false,
  source: 'webhook',
  periodEndsAt: at + hours * HOUR,
  site,
  ...extra,
});

describe.each(backends)('the one ledger on $name', (backend) => {
  let root: StoreRoot;
  let store: Store;
  beforeAll(async () => {
    root = await openStore(await backend.fresh());
    store = root.forServer(SERVER);
  }, 60_000);
  afterAll(() => root?.close());

  it("migrates a store of the release before: every vote is Guilds', a double weighing 2, counted as before", async () => {
    const target = await backend.fresh();
    const db = target.kind === 'postgres' ? openPostgres(target.url) : openSqlite(target.file);
    await migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= 9),
    );
    const insert = (userId: string, at: number, double: number, source: string) =>
      db.query(
        `INSERT INTO votes (guild_id, user_id, voted_at, is_double, source, period_ends_at, announced_at)
         VALUES ($1, $2, $3, $4, $5, $6, $3)`,
        [SERVER, userId, at, double, source, at + 12 * HOUR],
      );
    await insert(ALICE, T, 0, 'webhook');
    await insert(ALICE, T + 13 * HOUR, 1, 'poll');
    await insert(BOB, T, 1, 'webhook');
    await insert(BOB, T - DAY, 0, 'seed');
    await db.close();
    const migrated = await openStore(target);
    try {
      const rows = await (target.kind === 'postgres' ? openPostgres(target.url) : openSqlite(target.file));
      try {
        const kept = await rows.query(
          'SELECT user_id, site, site_event_id, weight, is_double FROM votes ORDER BY user_id, voted_at',
        );
        expect(kept.map((r) => [r.user_id, r.site, r.site_event_id, Number(r.weight), Number(r.is_double)])).toEqual([
          [ALICE, 'guilds', null, 1, 0],
          [ALICE, 'guilds', null, 2, 1],
          [BOB, 'guilds', null, 1, 0],
          [BOB, 'guilds', null, 2, 1],
        ]);
      } finally {
        await rows.close();
      }
      const migratedServer = migrated.forServer(SERVER);
      expect(await migratedServer.votesBetween(T - DAY, T + DAY)).toEqual([
        { userId: ALICE, votes: 3 },
        { userId: BOB, votes: 2 },
      ]);
      expect(await migratedServer.votesBetween(T - DAY, T + DAY, 'guilds')).toEqual([
        { userId: ALICE, votes: 3 },
        { userId: BOB, votes: 2 },
      ]);
      expect(await migratedServer.votesBetween(T - DAY, T + DAY, 'topgg')).toEqual([]);
      expect(await migratedServer.votesBetweenBySite(T - DAY, T + DAY)).toEqual([
        { userId: ALICE, votes: 3, bySite: { guilds: 3 } },
        { userId: BOB, votes: 2, bySite: { guilds: 2 } },
      ]);
      expect(await migratedServer.runningVotesOf(ALICE, T + 14 * HOUR)).toEqual([
        { site: 'guilds', votedAt: T + 13 * HOUR, endsAt: T + 25 * HOUR, weight: 2 },
      ]);
    } finally {
      await migrated.close();
    }
  });

  it('records one member voting on Guilds, Top.gg and discord.place as three votes counting 4, each repeat dropped', async () => {
    // Guilds' vote ends first; Top.gg's (a weekend vote: weight 2) later; discord.place's last.
    const guilds = vote(ALICE, 'guilds', T, 12);
    const topgg = vote(ALICE, 'topgg', T + HOUR, 12, { siteEventId: 'tg-1', weight: 2 });
    const place = vote(ALICE, 'discordplace', T + 2 * HOUR, 24);
    expect(await store.acceptVote(guilds)).toBe(true);
    // Guilds' end scheduled before the others came: the later votes move it on.
    await store.scheduleExpiry(ALICE, T + 12 * HOUR);
    expect(await store.acceptVote(topgg)).toBe(true);
    expect(await store.acceptVote(place)).toBe(true);

    // A repeat from each list: the same period on Guilds and discord.place, Top.gg's same id even later.
    expect(await store.acceptVote({ ...guilds, at: T + 3 * HOUR })).toBe(false);
    expect(await store.acceptVote({ ...topgg, at: T + 30 * HOUR, periodEndsAt: T + 42 * HOUR })).toBe(false);
    expect(await store.acceptVote({ ...place, at: T + 3 * HOUR })).toBe(false);

    const waiting = (await store.waitingVotes(20)).filter((v) => v.userId === ALICE);
    expect(waiting.map((v) => [v.site, v.double, v.sitesToday, v.first, v.monthVotes, v.totalVotes, v.streak])).toEqual(
      [
        ['guilds', false, ['guilds'], true, 1, 1, 1],
        ['topgg', true, ['guilds', 'topgg'], false, 3, 3, 1],
        ['discordplace', false, ['guilds', 'topgg', 'discordplace'], false, 4, 4, 1],
      ],
    );
    expect(await store.votesBetween(T, T + DAY)).toEqual([{ userId: ALICE, votes: 4 }]);
    expect(await store.votesBetween(T, T + DAY, 'topgg')).toEqual([{ userId: ALICE, votes: 2 }]);
    expect(await store.votesBetweenBySite(T, T + DAY)).toEqual([
      { userId: ALICE, votes: 4, bySite: { guilds: 1, topgg: 2, discordplace: 1 } },
    ]);
    const dayStart = Date.UTC(2026, 10, 15);
    expect(await store.votesPerDay(dayStart, 2)).toEqual([4, 0]);
    expect(await store.votesPerDayBySite(dayStart, 2)).toEqual({
      discordplace: [1, 0],
      guilds: [1, 0],
      topgg: [2, 0],
    });

    expect(await store.runningVotesOf(ALICE, T + 3 * HOUR)).toEqual([
      { site: 'guilds', votedAt: T, endsAt: T + 12 * HOUR, weight: 1 },
      { site: 'topgg', votedAt: T + HOUR, endsAt: T + 13 * HOUR, weight: 2 },
      { site: 'discordplace', votedAt: T + 2 * HOUR, endsAt: T + 26 * HOUR, weight: 1 },
    ]);
    expect((await store.runningVotes(T + 3 * HOUR)).get(ALICE)).toBe(T + 26 * HOUR);
    expect((await store.runningVotes(T + 3 * HOUR, 'guilds')).get(ALICE)).toBe(T + 12 * HOUR);
    // The voter role stays until the last list's vote ends: Guilds' end, written again, never brings it earlier.
    expect(await store.scheduledExpiry(ALICE)).toEqual({ userId: ALICE, endsAt: T + 26 * HOUR });
    expect(await store.rescheduleExpiry(ALICE, T + 12 * HOUR)).toBe(T + 26 * HOUR);
    await store.scheduleExpiries([{ userId: ALICE, endsAt: T + 11 * HOUR }]);
    expect(await store.scheduledExpiry(ALICE)).toEqual({ userId: ALICE, endsAt: T + 26 * HOUR });
    // Guilds' own end moved by the service moves Guilds' vote only.
    await store.setPeriodEnd(ALICE, T + 3 * HOUR, T + 10 * HOUR);
    expect((await store.runningVotesOf(ALICE, T + 3 * HOUR)).map((v) => v.endsAt)).toEqual([
      T + 10 * HOUR,
      T + 13 * HOUR,
      T + 26 * HOUR,
    ]);
    // The same member in another server: nothing crosses.
    const other = root.forServer(OTHER_SERVER);
    expect(await other.acceptVote(topgg)).toBe(true);
    expect(await other.votesBetween(T, T + DAY)).toEqual([{ userId: ALICE, votes: 2 }]);
    expect(await other.runningVotesOf(ALICE, T + 3 * HOUR)).toEqual([
      { site: 'topgg', votedAt: T + HOUR, endsAt: T + 13 * HOUR, weight: 2 },
    ]);
    expect(await other.scheduledExpiry(ALICE)).toEqual({ userId: ALICE, endsAt: T + 13 * HOUR });
    expect(await store.votesBetween(T, T + DAY)).toEqual([{ userId: ALICE, votes: 4 }]);
  });

  it("moves the scheduled end with Guilds' confirmed end in one commit, unless another list runs longer", async () => {
    const at = T + 20 * DAY;
    const [carol, dave] = ['700000000000000021', '700000000000000022'];
    // A delivery's assumed 12 hours, scheduled as the schedule does it.
    await store.acceptVotes([vote(carol, 'guilds', at, 12), vote(dave, 'guilds', at, 12)]);
    await store.scheduleExpiries([
      { userId: carol, endsAt: at + 12 * HOUR },
      { userId: dave, endsAt: at + 12 * HOUR },
    ]);
    await store.acceptVote(vote(dave, 'topgg', at, 20));
    expect(await store.scheduledExpiry(dave)).toEqual({ userId: dave, endsAt: at + 20 * HOUR });
    // The service's end, read by a refresh: no process stop between the ledger and the schedule can
    // leave the assumed end scheduled under a confirmed vote (the voter role kept for hours).
    await store.setPeriodEnd(carol, at + HOUR, at + 2 * HOUR);
    expect(await store.scheduledExpiry(carol)).toEqual({ userId: carol, endsAt: at + 2 * HOUR });
    expect(await store.unconfirmedVoters(at + HOUR, 12 * HOUR)).not.toContain(carol);
    // Top.gg's vote runs longer: the role stays for it, whatever Guilds' end became.
    await store.setPeriodEnds([{ userId: dave, periodEndsAt: at + 3 * HOUR }], at + HOUR);
    expect(await store.scheduledExpiry(dave)).toEqual({ userId: dave, endsAt: at + 20 * HOUR });
    // A member with no end scheduled gets none from it: scheduling stays the schedule's.
    const erin = '700000000000000023';
    await store.acceptVote(vote(erin, 'guilds', at, 12));
    await store.setPeriodEnd(erin, at + HOUR, at + 2 * HOUR);
    expect(await store.scheduledExpiry(erin)).toBeUndefined();
  });

  it('drops a repeat inside a list’s dedupe window, keeps a later vote, and never records a test delivery', async () => {
    const at = T + 40 * DAY;
    const discadia = vote(BOB, 'discadia', at, 24, { dedupeWindowMs: HOUR });
    expect(await store.acceptVote(discadia)).toBe(true);
    // The list's vote ran only a minute (its length setting), then the same vote came again.
    await store.setPeriodEnd(BOB, at, at + 60_000, 'discadia');
    expect(await store.acceptVote({ ...discadia, at: at + 30 * 60_000 })).toBe(false);
    expect(await store.acceptVote({ ...discadia, at: at + 2 * HOUR })).toBe(true);
    const test = { ...vote(BOB, 'topgg', at, 12), kind: 'test' } as unknown as NewVote;
    expect(await store.acceptVote(test)).toBe(false);
    expect(await store.votesBetweenBySite(at, at + DAY)).toEqual([{ userId: BOB, votes: 2, bySite: { discadia: 2 } }]);
  });

  it('leaves other lists out of the Guilds-only reads: unconfirmed deliveries, the seed takeover', async () => {
    const at = T + 60 * DAY;
    const member = '700000000000000011';
    // Top.gg's legacy votes run 12 h, as Guilds' assumed period does: still not Guilds' to confirm.
    await store.acceptVote(vote(member, 'topgg', at, 12));
    expect(await store.unconfirmedVoters(at, 12 * HOUR)).not.toContain(member);
    await store.acceptVote(vote(member, 'guilds', at, 12, { source: 'seed' }));
    expect(await store.acceptVote(vote(member, 'guilds', at + 1, 12, { double: true }))).toBe(true);
    const mine = (await store.waitingVotes(100)).filter((v) => v.userId === member);
    expect(mine.map((v) => [v.site, v.double])).toEqual([
      ['topgg', false],
      ['guilds', true],
    ]);
    expect(await store.votesBetween(at, at + DAY)).toContainEqual({ userId: member, votes: 3 });
  });

  it('carries one streak over every list: two lists in one period count once, a period on any list adds one', async () => {
    const member = '700000000000000012';
    const at = T + 80 * DAY;
    const streaks = async () =>
      (await store.waitingVotes(1_000)).filter((v) => v.userId === member).map((v) => [v.site, v.streak]);
    await store.acceptVote(vote(member, 'guilds', at, 12));
    await store.acceptVote(vote(member, 'discordplace', at + 11 * HOUR, 24));
    // Guilds again once its vote ran out: a new period, though discord.place's still runs.
    await store.acceptVote(vote(member, 'guilds', at + 12.5 * HOUR, 12));
    await store.acceptVote(vote(member, 'topgg', at + 13 * HOUR, 12));
    await store.acceptVote(vote(member, 'guilds', at + 25 * HOUR, 12));
    expect(await streaks()).toEqual([
      ['guilds', 1],
      ['discordplace', 1],
      ['guilds', 2],
      ['topgg', 2],
      ['guilds', 3],
    ]);
    expect(await store.streakOf(member, at + 25 * HOUR, 12 * HOUR)).toBe(3);
    // discord.place while Guilds' vote still runs: the same period.
    await store.acceptVote(vote(member, 'discordplace', at + 36 * HOUR, 24));
    // Guilds let lapse past the grace, but discord.place's vote still runs: the streak lives on.
    await store.acceptVote(vote(member, 'topgg', at + 50 * HOUR, 12));
    expect((await streaks()).slice(-2)).toEqual([
      ['discordplace', 3],
      ['topgg', 3],
    ]);
    // Every vote ran out longer ago than the grace: a new streak.
    await store.acceptVote(vote(member, 'topgg', at + 75 * HOUR, 12));
    expect((await streaks()).at(-1)).toEqual(['topgg', 1]);
  });
});
