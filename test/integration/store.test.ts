import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openStore, parseDatabaseUrl, type DatabaseTarget, type Store, type StoreRoot } from '../../src/store/index.js';
import { migrate, MIGRATIONS } from '../../src/store/migrations.js';
import { openPostgres } from '../../src/store/postgres.js';
import { openSqlite } from '../../src/store/sqlite.js';
import { activeSqliteDriver, sqliteDrivers } from '../../src/store/sqlite-driver.js';
import { type SqliteDriver } from '../../src/store/sqlite-connection.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';

const HOUR = 3_600_000;
const ALICE = '284102390141648897';
const BOB = '593031275438718986';
/** The server the contract tests write for; another one proves rows stay apart. */
const SERVER = '111111111111111111';
const OTHER_SERVER = '222222222222222222';

interface Backend {
  name: string;
  /** A target for a new, empty database. */
  fresh(): Promise<DatabaseTarget>;
  open(target: DatabaseTarget): Promise<StoreRoot>;
  driver: Store['driver'];
}

const dirs: string[] = [];
let server: TestPostgres | undefined;

const sqliteThrough = (driver: SqliteDriver, role: string): Backend => ({
  name: `SQLite (temp file) through ${driver.name}, ${role}`,
  async fresh() {
    const dir = mkdtempSync(path.join(tmpdir(), 'bot-store-'));
    dirs.push(dir);
    return { kind: 'sqlite', file: path.join(dir, 'nested', 'bot.sqlite') };
  },
  open: (target) => openStore(target, driver),
  driver: driver.name,
});
const active = activeSqliteDriver();
const sqlite = sqliteThrough(active, 'the driver this Node uses');
// Node 22 loads both drivers: the one this Node does not use is held to the same contract.
const otherSqlite = sqliteDrivers()
  .filter((driver) => driver.name !== active.name)
  .map((driver) => sqliteThrough(driver, 'also loadable here'));
const postgres: Backend = {
  name: 'PostgreSQL',
  async fresh() {
    server ??= await startPostgres();
    return { kind: 'postgres', url: await server.createDatabase() };
  },
  open: (target) => openStore(target),
  driver: 'pg',
};

afterAll(async () => {
  await server?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 30_000);

describe.each([sqlite, ...otherSqlite, postgres])('the store on $name', (backend) => {
  let target: DatabaseTarget;
  let root: StoreRoot;
  let store: Store;
  beforeAll(async () => {
    target = await backend.fresh();
    root = await backend.open(target);
    store = root.forServer(SERVER);
  }, 60_000);
  afterAll(() => root?.close());

  it('migrates a store of the single-server releases in place; the server it served adopts every row', async () => {
    const old = await backend.fresh();
    const db = old.kind === 'postgres' ? openPostgres(old.url) : openSqlite(old.file);
    await migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= 3),
    );
    await db.query(
      `INSERT INTO feed_posts (review_id, author_id, rating, content, received_at, channel_id, message_id)
       VALUES ('rev_old', $1, 4, 'Kept', 1000, '900000000000000031', '900000000000000032')`,
      [BOB],
    );
    await db.query(
      `INSERT INTO votes (user_id, voted_at, is_double, source, period_ends_at) VALUES ($1, 2000, 0, 'webhook', 9000)`,
      [ALICE],
    );
    await db.query(`INSERT INTO events (kind, payload, received_at) VALUES ('vote', '{}', 3000)`);
    await db.query(`INSERT INTO vote_expiries (user_id, ends_at) VALUES ($1, 9000)`, [ALICE]);
    await db.query(`INSERT INTO vote_mirror (user_id, expires_at, via_discord) VALUES ($1, 9000, 1)`, [ALICE]);
    await db.query(`INSERT INTO reminder_optins (user_id, locale, opted_in_at) VALUES ($1, 'de', 1500)`, [BOB]);
    await db.query(`INSERT INTO settings (key, value) VALUES ('mirror_totals', $1)`, [
      JSON.stringify({ totalVotes: 42, monthlyVotes: 7, polledAt: 2500 }),
    ]);
    await db.close();
    const migrated = await backend.open(old);
    try {
      expect(await migrated.schemaVersion()).toBe(MIGRATIONS.at(-1)!.version);
      // Rows from before belong to no server until the single server adopts them.
      expect(await migrated.forServer(SERVER).feedPost('rev_old')).toBeUndefined();
      expect(await migrated.adoptUnowned(SERVER)).toBeGreaterThanOrEqual(7);
      expect(await migrated.adoptUnowned(OTHER_SERVER)).toBe(0);
      const server = migrated.forServer(SERVER);
      expect(await server.feedPost('rev_old')).toMatchObject({
        messageId: '900000000000000032',
        channelId: '900000000000000031',
        answer: null,
      });
      expect(await server.waitingReviews(5)).toEqual([]);
      // An answer to an old post redraws it in its channel.
      expect(await server.recordAnswer('rev_old', { replyId: 'r', moderatorId: null, at: 4_000 })).toBe(
        '900000000000000031',
      );
      expect((await server.waitingVotes(5)).map((v) => v.userId)).toEqual([ALICE]);
      expect(await server.scheduledExpiry(ALICE)).toEqual({ userId: ALICE, endsAt: 9000 });
      expect(await server.mirrorEntry(ALICE)).toEqual({ userId: ALICE, expiresAt: 9000, viaDiscord: true });
      expect(await server.mirrorTotals()).toEqual({ totalVotes: 42, monthlyVotes: 7, polledAt: 2500 });
      expect(await server.reminderOptIn(BOB)).toEqual({ userId: BOB, locale: 'de', since: 1500 });
      expect((await migrated.pendingEvents(5)).map((e) => [e.guildId, e.kind, e.attempts])).toEqual([
        [SERVER, 'vote', 0],
      ]);
      expect(await migrated.forServer(OTHER_SERVER).waitingVotes(5)).toEqual([]);
    } finally {
      await migrated.close();
    }
  });

  it("keeps each server's rows apart: one server never reads or counts another's", async () => {
    const other = root.forServer(OTHER_SERVER);
    const t = 50 * HOUR;
    await other.acceptVote({ userId: ALICE, at: t, double: false, source: 'webhook', periodEndsAt: t + 12 * HOUR });
    await other.queueReview({ reviewId: 'rev_apart', authorId: BOB, rating: 3, content: '', receivedAt: t });
    await other.optInReminders(BOB, 'en', t);
    await other.scheduleExpiry(ALICE, t + 12 * HOUR);
    expect(await store.feedPost('rev_apart')).toBeUndefined();
    expect(await store.reminderOptIn(BOB)).toBeUndefined();
    expect(await store.scheduledExpiry(ALICE)).toBeUndefined();
    expect(await store.votesBetween(t, t + 1)).toEqual([]);
    expect(await other.votesBetween(t, t + 1)).toEqual([{ userId: ALICE, votes: 1 }]);
    // The same review id in another server is another review.
    const third = root.forServer('333333333333333333');
    expect(
      await third.queueReview({ reviewId: 'rev_apart', authorId: ALICE, rating: 5, content: '', receivedAt: t }),
    ).toBe(true);
    expect((await other.feedPost('rev_apart'))?.authorId).toBe(BOB);
    await root.forgetServer(OTHER_SERVER);
    expect(await other.feedPost('rev_apart')).toBeUndefined();
    expect(await other.reminderOptIn(BOB)).toBeUndefined();
    expect((await third.feedPost('rev_apart'))?.authorId).toBe(ALICE);
    await root.forgetServer('333333333333333333');
  });

  it('keeps servers with their settings and sealed secrets, and forgets one with everything it has', async () => {
    const record = {
      guildId: OTHER_SERVER,
      settings: { reviewChannelId: '900000000000000041', moderatorRoleIds: ['900000000000000042'] },
      sealed: { apiKey: 'v1:k:iv:tag:sealed-key', appId: 'v1:k:iv:tag:sealed-app', webhookToken: null },
      createdAt: 1_000,
      updatedAt: 2_000,
      leftAt: null,
    };
    await root.saveServer(record);
    await root.saveServer({ ...record, updatedAt: 3_000, leftAt: 3_000 });
    const again = await backend.open(target);
    try {
      expect(await again.server(OTHER_SERVER)).toEqual({ ...record, updatedAt: 3_000, leftAt: 3_000 });
      expect((await again.servers()).map((s) => s.guildId)).toContain(OTHER_SERVER);
    } finally {
      await again.close();
    }
    await root.forgetServer(OTHER_SERVER);
    expect(await root.server(OTHER_SERVER)).toBeUndefined();
  });

  it('runs on the driver it was opened with', () => {
    expect(store.driver).toBe(backend.driver);
  });

  it('says since when it has been counting votes: its creation, unchanged by reopening', async () => {
    const since = await store.countingSince();
    expect(Math.abs(since - Date.now())).toBeLessThan(60_000);
    const again = await backend.open(target);
    try {
      expect(await again.forServer(SERVER).countingSince()).toBe(since);
    } finally {
      await again.close();
    }
  });

  it('runs every migration at start and none again on reopening', async () => {
    expect(await root.schemaVersion()).toBe(MIGRATIONS.at(-1)!.version);
    const again = await backend.open(target);
    try {
      expect(await again.schemaVersion()).toBe(MIGRATIONS.at(-1)!.version);
    } finally {
      await again.close();
    }
  });

  it("knows when a server's last webhook delivery came, handled or not, and not another server's", async () => {
    const [own, other] = ['700000000000000001', '700000000000000002'];
    expect(await root.forServer(own).lastDeliveryAt()).toBeUndefined();
    const first = await root.addEvent(own, 'review', {}, 5_000);
    const later = await root.addEvent(other, 'vote', {}, 9_000);
    // Handled at once: the tests of the inbox below count what is pending.
    await root.markEventHandled(first, 6_000);
    await root.markEventHandled(later, 9_500);
    expect(await root.forServer(own).lastDeliveryAt()).toBe(5_000);
    expect(await root.forServer(other).lastDeliveryAt()).toBe(9_000);
  });

  it("keeps each server's newest delivery log lines of each window, newest first, trimmed on every write", async () => {
    const [own, other] = ['700000000000000011', '700000000000000012'];
    const lines = Array.from({ length: 14 }, (_, i) => ({
      guildId: own,
      at: 10_000 + i,
      event: i % 2 ? 'vote' : 'review',
      outcome: i === 13 ? ('wrong_token' as const) : ('stored' as const),
    }));
    await root.recordDeliveries(lines.slice(0, 8), 10);
    await root.recordDeliveries([...lines.slice(8), { guildId: other, at: 1, event: '?', outcome: 'malformed' }], 10);
    const kept = await root.forServer(own).recentDeliveries(50);
    // The 10 newest stored, and the refusal: a window of its own.
    expect(kept.map((line) => line.at)).toEqual(
      lines
        .map((line) => line.at)
        .reverse()
        .slice(0, 11),
    );
    expect(kept[0]).toEqual({ guildId: own, at: 10_013, event: 'vote', outcome: 'wrong_token' });
    expect(await root.forServer(other).recentDeliveries(50)).toEqual([
      { guildId: other, at: 1, event: '?', outcome: 'malformed' },
    ]);
    // Trimmed in the store, not only when read: the other server's line is untouched.
    await root.recordDeliveries([{ guildId: own, at: 20_000, event: 'reply', outcome: 'duplicate' }], 3);
    expect((await root.forServer(own).recentDeliveries(50)).map((line) => line.at)).toEqual([
      20_000, 10_013, 10_012, 10_011,
    ]);
    expect((await root.forServer(own).recentDeliveries(2)).map((line) => line.at)).toEqual([20_000, 10_013, 10_012]);
    expect(await root.forServer(other).recentDeliveries(50)).toHaveLength(1);
    // One write for many servers (more than one statement's worth) trims each of them to its own newest.
    const servers = Array.from({ length: 520 }, (_, i) => `7100000000000${String(i).padStart(5, '0')}`);
    await root.recordDeliveries(
      servers.flatMap((guildId) => [1, 2, 3].map((at) => ({ guildId, at, event: 'vote', outcome: 'stored' as const }))),
      2,
    );
    for (const guildId of [servers[0]!, servers[519]!])
      expect((await root.forServer(guildId).recentDeliveries(50)).map((line) => line.at)).toEqual([3, 2]);
    expect((await root.forServer(own).recentDeliveries(50)).map((line) => line.at)).toEqual([
      20_000, 10_013, 10_012, 10_011,
    ]);
  });

  it('remembers the last poll and how it went', async () => {
    const own = root.forServer('700000000000000013');
    expect(await own.lastPoll()).toBeUndefined();
    await own.recordPoll({ at: 1_000, ok: true });
    await own.recordPoll({ at: 2_000, ok: false, code: 'unauthorized' });
    expect(await own.lastPoll()).toEqual({ at: 2_000, ok: false, code: 'unauthorized' });
    expect(await root.forServer('700000000000000014').lastPoll()).toBeUndefined();
  });

  it('lists the reviews with no reply yet, oldest first, a page at a time; an answer takes one off', async () => {
    const own = root.forServer('700000000000000015');
    for (const [i, at] of [5_000, 1_000, 3_000, 4_000, 2_000, 6_000].entries())
      await own.queueReview({ reviewId: `rev_inbox_${i}`, authorId: ALICE, rating: 3, content: 'x', receivedAt: at });
    await root
      .forServer('700000000000000016')
      .queueReview({ reviewId: 'rev_elsewhere', authorId: BOB, rating: 5, content: 'y', receivedAt: 0 });
    const first = await own.unansweredReviews(5, 0);
    expect(first.total).toBe(6);
    expect(first.reviews.map((r) => r.receivedAt)).toEqual([1_000, 2_000, 3_000, 4_000, 5_000]);
    expect((await own.unansweredReviews(5, 5)).reviews.map((r) => r.reviewId)).toEqual(['rev_inbox_5']);
    await own.recordAnswer('rev_inbox_1', { replyId: 'rep_1', moderatorId: null, at: 7_000 });
    const after = await own.unansweredReviews(5, 0);
    expect(after.total).toBe(5);
    expect(after.reviews.map((r) => r.receivedAt)).toEqual([2_000, 3_000, 4_000, 5_000, 6_000]);
    // A review the service no longer has leaves the inbox once; an answered one is not "gone".
    expect(await own.reviewGone('rev_inbox_2', 8_000)).toBe(true);
    expect(await own.reviewGone('rev_inbox_2', 9_000)).toBe(false);
    expect(await own.reviewGone('rev_inbox_1', 9_000)).toBe(false);
    const gone = await own.unansweredReviews(5, 0);
    expect(gone.total).toBe(4);
    expect(gone.reviews.map((r) => r.reviewId)).not.toContain('rev_inbox_2');
  });

  it('keeps accepted events until they are handled, oldest first, across a reopen', async () => {
    const first = await root.addEvent(SERVER, 'review', { id: 'rev_1', content: 'ünïcode ✓' }, 1_000);
    const second = await root.addEvent(SERVER, 'vote', { user: { id: ALICE } }, 2_000);
    const reopened = await backend.open(target);
    try {
      const pending = await reopened.pendingEvents(10);
      expect(pending.map((e) => [e.id, e.kind, e.receivedAt])).toEqual([
        [first, 'review', 1_000],
        [second, 'vote', 2_000],
      ]);
      expect(pending[0]!.payload).toEqual({ id: 'rev_1', content: 'ünïcode ✓' });
      await reopened.markEventHandled(first, 3_000);
    } finally {
      await reopened.close();
    }
    expect((await root.pendingEvents(10)).map((e) => e.id)).toEqual([second]);
    await root.markEventHandled(second, 3_000);
    expect(await root.pendingEvents(10)).toEqual([]);
  });

  it('keeps a review until its post is sent, claims it once, and shows which message holds it', async () => {
    const review = { reviewId: 'rev_feed', authorId: BOB, rating: 4, content: 'Good server', receivedAt: 5_000 };
    expect(await store.queueReview(review)).toBe(true);
    expect(await store.queueReview({ ...review, content: 'a repeat delivery' })).toBe(false);
    expect(await store.waitingReviews(10)).toEqual([{ ...review, answer: null }]);
    const channelId = '900000000000000001';
    const postId = await store.createPost(
      { channelId, kind: 'reviews', body: { embeds: [{ title: 'x' }] }, nonce: 'n1', createdAt: 6_000 },
      ['rev_feed'],
    );
    expect(await store.waitingReviews(10)).toEqual([]);
    // Claimed once: a second claim of the same review changes nothing.
    await expect(
      store.createPost({ channelId, kind: 'reviews', body: {}, nonce: 'n2', createdAt: 6_000 }, ['rev_feed']),
    ).rejects.toThrow();
    const reopened = await backend.open(target);
    try {
      expect(await reopened.forServer(SERVER).unsentPosts(channelId, 5)).toEqual([
        { id: postId, channelId, kind: 'reviews', body: { embeds: [{ title: 'x' }] }, nonce: 'n1', createdAt: 6_000 },
      ]);
      expect((await reopened.workWaitingAll()).get(SERVER)?.channels).toContain(channelId);
    } finally {
      await reopened.close();
    }
    await store.postSent(postId, '900000000000000002', 7_000);
    expect(await store.unsentPosts(channelId, 5)).toEqual([]);
    expect(await store.feedPost('rev_feed')).toEqual({
      ...review,
      answer: null,
      channelId,
      messageId: '900000000000000002',
    });
  });

  it('keeps the first answer; redraws a posted review; keeps an answer that came before its review', async () => {
    const channelId = '900000000000000011';
    const posted = { reviewId: 'rev_answered', authorId: BOB, rating: 5, content: 'Nice', receivedAt: 1_000 };
    await store.queueReview(posted);
    const postId = await store.createPost({ channelId, kind: 'reviews', body: {}, nonce: 'n', createdAt: 1 }, [
      'rev_answered',
    ]);
    await store.postSent(postId, '900000000000000012', 2_000);
    const first = { replyId: 'rep_1', moderatorId: ALICE, at: 6_000 };
    expect(await store.recordAnswer('rev_answered', first)).toBe(channelId);
    expect(await store.recordAnswer('rev_answered', { replyId: null, moderatorId: null, at: 7_000 })).toBeNull();
    const [edit] = await store.dueEdits(channelId, 5);
    expect(edit?.messageId).toBe('900000000000000012');
    expect(edit?.reviews.map((r) => [r.reviewId, r.answer])).toEqual([['rev_answered', first]]);
    await store.editDone(edit!);
    expect(await store.dueEdits(channelId, 5)).toEqual([]);

    // Guilds reported the reply before the review: it waits, and the review arrives answered.
    const early = { replyId: 'rep_early', moderatorId: null, at: 8_000 };
    expect(await store.recordAnswer('rev_late', early)).toBe('kept');
    await store.queueReview({ reviewId: 'rev_late', authorId: ALICE, rating: 3, content: '', receivedAt: 9_000 });
    expect((await store.waitingReviews(10)).find((r) => r.reviewId === 'rev_late')?.answer).toEqual(early);
    // A review answered while it waits needs no redraw: its post will be drawn answered.
    expect(await store.recordAnswer('rev_late', first)).toBeNull();
  });

  it('parks a refused channel once, and a post Discord will never take, and counts what waits', async () => {
    const channelId = '900000000000000021';
    const lane = { channelId, reason: 'access', code: 50001, parkedAt: 1_000 };
    expect(await store.parkLane(lane)).toBe(true);
    expect(await store.parkLane({ ...lane, parkedAt: 2_000 })).toBe(false);
    expect(await store.parkedLane(channelId)).toEqual(lane);
    const before = await root.workCounts();
    expect(before.parkedLanes).toBeGreaterThanOrEqual(1);
    expect(await store.unparkLane(channelId)).toBe(true);
    expect(await store.unparkLane(channelId)).toBe(false);
    expect(await store.parkedLane(channelId)).toBeUndefined();

    await store.queueReview({ reviewId: 'rev_invalid', authorId: BOB, rating: 1, content: 'x', receivedAt: 1 });
    const postId = await store.createPost({ channelId, kind: 'reviews', body: {}, nonce: 'n', createdAt: 1 }, [
      'rev_invalid',
    ]);
    await store.parkPost(postId, '400 50035');
    expect(await store.unsentPosts(channelId, 5)).toEqual([]);
    const after = await root.workCounts();
    expect(after.parkedPosts).toBe(before.parkedPosts + 1);
    expect(after.parkedLanes).toBe(before.parkedLanes - 1);
  });

  it('lets a failed event wait its backoff while later ones are handled', async () => {
    const failing = await root.addEvent(SERVER, 'vote', { n: 1 }, 1_000);
    const next = await root.addEvent(SERVER, 'vote', { n: 2 }, 1_000);
    await root.deferEvent(failing, 1, 50_000);
    expect((await root.pendingEvents(10, 10_000)).map((e) => e.id)).toEqual([next]);
    expect(await root.nextEventDue()).toBe(0);
    await root.markEventHandled(next, 10_000);
    expect(await root.nextEventDue()).toBe(50_000);
    const [due] = await root.pendingEvents(10, 50_000);
    expect([due?.id, due?.attempts]).toEqual([failing, 1]);
    await root.markEventHandled(failing, 50_000);
    expect(await root.nextEventDue()).toBeUndefined();
  });

  it('stores many deliveries in one call, each with its own id in the order given, pending until handled', async () => {
    const events = Array.from({ length: 450 }, (_, i) => ({
      guildId: i % 2 ? SERVER : OTHER_SERVER,
      kind: 'vote',
      payload: { event: 'vote', i },
      receivedAt: 7_000 + i,
    }));
    const ids = await root.addEvents(events);
    expect(ids).toHaveLength(450);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const pending = new Map((await root.pendingEvents(10_000)).map((event) => [event.id, event]));
    for (const [i, id] of ids.entries()) {
      const stored = pending.get(id)!;
      expect([stored.guildId, stored.payload, stored.receivedAt]).toEqual([
        events[i]!.guildId,
        events[i]!.payload,
        events[i]!.receivedAt,
      ]);
    }
    expect(await root.addEvents([])).toEqual([]);
    await root.markEventsHandled(ids, 8_000);
  });

  it("marks a drained batch of events handled at once, only those named, and each server's own", async () => {
    const other = '700000000000000021';
    const ids = [
      await root.addEvent(SERVER, 'vote', { n: 1 }, 1_000),
      await root.addEvent(other, 'vote', { n: 2 }, 1_000),
      await root.addEvent(SERVER, 'review', { n: 3 }, 1_000),
    ];
    const kept = await root.addEvent(SERVER, 'vote', { n: 4 }, 1_000);
    const pending = async () => (await root.pendingEvents(1_000)).map((event) => event.id);
    expect(await pending()).toEqual(expect.arrayContaining([...ids, kept]));
    await root.markEventsHandled(ids, 2_000);
    expect(await pending()).toEqual([kept]);
    expect(await root.forServer(other).lastDeliveryAt()).toBe(1_000);
    // More ids than one statement binds: every one of them is marked.
    const many = await Promise.all(
      Array.from({ length: 1_200 }, (_, i) => root.addEvent(SERVER, 'vote', { i }, 3_000)),
    );
    await root.markEventsHandled([...many, kept], 4_000);
    expect(await pending()).toEqual([]);
    await root.markEventsHandled([], 5_000);
  });

  it('reschedules a vote end in one call, saying which end it replaced', async () => {
    const base = 8_000_000_000_000;
    expect(await store.rescheduleExpiry(BOB, base + HOUR)).toBeUndefined();
    expect(await store.scheduledExpiry(BOB)).toEqual({ userId: BOB, endsAt: base + HOUR });
    expect(await store.rescheduleExpiry(BOB, base + 3 * HOUR)).toBe(base + HOUR);
    expect(await store.scheduledExpiry(BOB)).toEqual({ userId: BOB, endsAt: base + 3 * HOUR });
    // Another server's schedule is its own.
    expect(await root.forServer(OTHER_SERVER).rescheduleExpiry(BOB, base)).toBeUndefined();
    expect(await store.scheduledExpiry(BOB)).toEqual({ userId: BOB, endsAt: base + 3 * HOUR });
    await store.clearExpiry(BOB, base + 3 * HOUR);
    await root.forServer(OTHER_SERVER).clearExpiry(BOB, base);
  });

  it('says, for every server at once, which have votes or reviews waiting for their channels', async () => {
    const quiet = root.forServer(OTHER_SERVER);
    const before = await root.workWaitingAll();
    expect(before.get(OTHER_SERVER)).toBeUndefined();
    const t = 40 * HOUR;
    await quiet.acceptVote({ userId: ALICE, at: t, double: false, source: 'webhook', periodEndsAt: t + 12 * HOUR });
    expect((await root.workWaitingAll()).get(OTHER_SERVER)).toEqual({ channels: [], votes: true, reviews: false });
    await quiet.markAnnounced(
      (await quiet.waitingVotes(10)).map((vote) => vote.id),
      null,
      t,
    );
    expect((await root.workWaitingAll()).get(OTHER_SERVER)).toBeUndefined();
  });

  it('accepts one vote per member per period and queues each accepted vote once for announcing', async () => {
    const t = 10 * HOUR;
    expect(
      await store.acceptVote({ userId: ALICE, at: t, double: false, source: 'webhook', periodEndsAt: t + 12 * HOUR }),
    ).toBe(true);
    expect(
      await store.acceptVote({
        userId: ALICE,
        at: t + HOUR,
        double: true,
        source: 'poll',
        periodEndsAt: t + 13 * HOUR,
      }),
    ).toBe(false);
    expect(
      await store.acceptVote({
        userId: BOB,
        at: t + HOUR,
        double: true,
        source: 'webhook',
        periodEndsAt: t + 13 * HOUR,
      }),
    ).toBe(true);
    const pending = await store.waitingVotes(10);
    expect(pending.map((a) => [a.userId, a.double, a.at])).toEqual([
      [ALICE, false, t],
      [BOB, true, t + HOUR],
    ]);
    // Claimed into a post: no longer waiting, announced only once the post is sent.
    const channelId = '900000000000000003';
    const postId = await store.createPost(
      { channelId, kind: 'votes', body: { content: 'votes' }, nonce: 'n', createdAt: t },
      [pending[0]!.id],
    );
    expect((await store.waitingVotes(10)).map((a) => a.userId)).toEqual([BOB]);
    expect((await root.workCounts()).votes).toBe(2);
    await store.postSent(postId, '900000000000000004', t + 2 * HOUR);
    await store.markAnnounced([pending[1]!.id], null, t + 2 * HOUR);
    expect(await store.waitingVotes(10)).toEqual([]);
    expect((await root.workCounts()).votes).toBe(0);

    // The service said the vote runs out sooner: a vote after that is a new period.
    await store.setPeriodEnd(ALICE, t + HOUR, t + 3 * HOUR);
    expect(
      await store.acceptVote({
        userId: ALICE,
        at: t + 2 * HOUR,
        double: false,
        source: 'webhook',
        periodEndsAt: t + 14 * HOUR,
      }),
    ).toBe(false);
    expect(
      await store.acceptVote({
        userId: ALICE,
        at: t + 3 * HOUR,
        double: false,
        source: 'webhook',
        periodEndsAt: t + 15 * HOUR,
      }),
    ).toBe(true);

    // Leaderboard counts: a double vote counts as two; the range is half-open.
    expect(await store.votesBetween(t, t + 3 * HOUR)).toEqual([
      { userId: BOB, votes: 2 },
      { userId: ALICE, votes: 1 },
    ]);
    expect(await store.votesBetween(t, t + 4 * HOUR)).toEqual([
      { userId: ALICE, votes: 2 },
      { userId: BOB, votes: 2 },
    ]);
  });

  it('takes votes seen at the first poll as marking the period, never announced nor counted', async () => {
    const t = 50 * HOUR;
    const member = '1016969119945512929';
    expect(
      await store.acceptVote({ userId: member, at: t, double: false, source: 'seed', periodEndsAt: t + HOUR }),
    ).toBe(true);
    expect(
      await store.acceptVote({ userId: member, at: t + 1, double: false, source: 'poll', periodEndsAt: t + HOUR }),
    ).toBe(false);
    expect((await store.waitingVotes(100)).map((a) => a.userId)).not.toContain(member);
    expect(await store.votesBetween(t, t + HOUR)).toEqual([]);
  });

  it("lets a vote's delivery take over the row the first poll made of it: announced once, counted, double kept", async () => {
    const t = 60 * HOUR;
    const member = '1016969119945512931';
    await store.acceptVote({ userId: member, at: t, double: false, source: 'seed', periodEndsAt: t + HOUR });
    const delivery = {
      userId: member,
      at: t + 5,
      double: true,
      source: 'webhook' as const,
      periodEndsAt: t + 12 * HOUR,
    };
    expect(await store.acceptVote(delivery)).toBe(true);
    const waiting = (await store.waitingVotes(100)).filter((a) => a.userId === member);
    expect(waiting).toEqual([expect.objectContaining({ userId: member, double: true })]);
    expect(await store.votesBetween(t, t + HOUR)).toEqual([{ userId: member, votes: 2 }]);
    // The poll's end of the period stays; a repeated delivery is the same vote.
    expect((await store.runningVotes(t + 10)).get(member)).toBe(t + HOUR);
    expect(await store.acceptVote({ ...delivery, at: t + 9 })).toBe(false);
    expect((await store.waitingVotes(100)).filter((a) => a.userId === member)).toHaveLength(1);
  });

  it("counts a server's votes per UTC day (a double as two, first-poll votes not) and its reviews per rating", async () => {
    const day = 86_400_000;
    const from = 400 * day;
    const counted = root.forServer('444444444444444444');
    const vote = (userId: string, at: number, double = false, source: 'webhook' | 'poll' | 'seed' = 'webhook') =>
      counted.acceptVote({ userId, at, double, source, periodEndsAt: at + HOUR });
    await vote(ALICE, from - 1);
    await vote(ALICE, from + 2 * HOUR);
    await vote(BOB, from + 3 * HOUR, true);
    await vote('1016969119945512929', from + 4 * HOUR, false, 'seed');
    await vote(ALICE, from + 2 * day + 23 * HOUR, false, 'poll');
    await vote(BOB, from + 3 * day);
    expect(await counted.votesPerDay(from, 3)).toEqual([3, 0, 1]);
    expect(await counted.votesPerDay(from + day, 3)).toEqual([0, 1, 1]);
    expect(await store.votesPerDay(from, 3)).toEqual([0, 0, 0]);

    for (const [index, rating] of [5, 5, 4, 1, 5].entries())
      await counted.queueReview({
        reviewId: `rev_stats_${index}`,
        authorId: BOB,
        rating,
        content: '',
        receivedAt: from,
      });
    expect(await counted.ratingCounts()).toEqual([
      { rating: 1, reviews: 1 },
      { rating: 4, reviews: 1 },
      { rating: 5, reviews: 3 },
    ]);
    await root.forgetServer('444444444444444444');
    expect(await counted.ratingCounts()).toEqual([]);
  });

  it('never accepts two votes of one member in a period, even when offered at once', async () => {
    const t = 100 * HOUR;
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        store.acceptVote({
          userId: '412958623017041920',
          at: t,
          double: false,
          source: 'webhook',
          periodEndsAt: t + HOUR,
        }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("accepts a poll's whole list at once: each member once beside deliveries at the same moment, streaks carried on", async () => {
    const server = root.forServer('600000000000000077');
    const t = 200 * HOUR;
    const returning = '600000000000000100';
    expect(
      await server.acceptVote({
        userId: returning,
        at: t - 13 * HOUR,
        double: false,
        source: 'webhook',
        periodEndsAt: t - HOUR,
      }),
    ).toBe(true);
    // More members than one transaction and one INSERT take, so the slices are crossed too.
    const members = Array.from({ length: 1_200 }, (_, i) => String(600000000000000100n + BigInt(i)));
    const vote = (userId: string, source: 'poll' | 'webhook') => ({
      userId,
      at: t,
      double: false,
      source,
      periodEndsAt: t + 12 * HOUR,
    });
    const [polled, ...delivered] = await Promise.all([
      server.acceptVotes(members.map((userId) => vote(userId, 'poll'))),
      ...members.slice(0, 40).map((userId) => server.acceptVote(vote(userId, 'webhook'))),
    ]);
    const deliveredNew = members.slice(0, 40).filter((_, i) => delivered[i]);
    expect([...polled, ...deliveredNew].sort()).toEqual([...members].sort());
    const waiting = (await server.waitingVotes(5_000)).filter((a) => a.at === t);
    expect(waiting.map((a) => a.userId).sort()).toEqual([...members].sort());
    expect(waiting.find((a) => a.userId === returning)?.streak).toBe(2);
    expect(waiting.find((a) => a.userId === members[1])?.streak).toBe(1);
    expect(await server.acceptVotes(members.slice(0, 10).map((userId) => vote(userId, 'poll')))).toEqual([]);
    const running = await server.runningVotes(t);
    expect(running.size).toBe(members.length);
    expect(running.get(members[5]!)).toBe(t + 12 * HOUR);
  });

  it('mirrors the active votes: a poll replaces them all, a refresh changes one', async () => {
    expect(await store.mirrorTotals()).toBeUndefined();
    await store.savePoll({
      entries: [
        { userId: ALICE, expiresAt: 50_000, viaDiscord: true },
        { userId: BOB, expiresAt: 60_000, viaDiscord: false },
      ],
      totals: { totalVotes: 10, monthlyVotes: 3, polledAt: 1_000 },
      poll: { at: 1_000, ok: true },
    });
    expect(await store.mirrorEntry(BOB)).toEqual({ userId: BOB, expiresAt: 60_000, viaDiscord: false });
    expect(await store.mirrorTotals()).toEqual({ totalVotes: 10, monthlyVotes: 3, polledAt: 1_000 });
    await store.setMirrorEntry(ALICE, { userId: ALICE, expiresAt: 70_000, viaDiscord: false });
    await store.setMirrorEntry(BOB, null);
    expect(await store.mirrorEntry(ALICE)).toEqual({ userId: ALICE, expiresAt: 70_000, viaDiscord: false });
    expect(await store.mirrorEntry(BOB)).toBeUndefined();
    await store.savePoll({
      entries: [],
      totals: { totalVotes: 11, monthlyVotes: 4, polledAt: 2_000 },
      poll: { at: 2_000, ok: true },
    });
    expect(await store.mirrorEntry(ALICE)).toBeUndefined();
    expect(await store.mirrorTotals()).toEqual({ totalVotes: 11, monthlyVotes: 4, polledAt: 2_000 });
    await store.savePoll({
      entries: [{ userId: BOB, expiresAt: 80_000, viaDiscord: true }],
      totals: { totalVotes: 12, monthlyVotes: 5, polledAt: 3_000 },
      poll: { at: 3_000, ok: true },
    });
    expect(await store.mirrorEntries()).toEqual([{ userId: BOB, expiresAt: 80_000, viaDiscord: true }]);
  });

  it("writes and reads many members' scheduled ends at once, the last given for a member winning", async () => {
    const server = root.forServer('600000000000000088');
    const members = Array.from({ length: 650 }, (_, i) => String(610000000000000000n + BigInt(i)));
    await server.scheduleExpiries([
      ...members.map((userId, i) => ({ userId, endsAt: 1_000 + i })),
      { userId: members[0]!, endsAt: 5 },
    ]);
    const some = await server.scheduledExpiriesOf([members[0]!, members[649]!, '610000000000009999']);
    expect([...some].sort()).toEqual([
      [members[0], 5],
      [members[649], 1_649],
    ]);
    const all = await server.scheduledExpiries();
    expect(all.size).toBe(650);
    expect(all.get(members[300]!)).toBe(1_300);
    expect((await server.scheduledExpiriesOf(members)).size).toBe(650);
  });

  it('keeps the vote expiry schedule across a reopen: due ones soonest first, every server’s; a moved end is not cleared', async () => {
    const base = 9_000_000_000_000;
    await store.scheduleExpiry(ALICE, base + 2 * HOUR);
    await store.scheduleExpiry(BOB, base + HOUR);
    await root.forServer(OTHER_SERVER).scheduleExpiry(ALICE, base + HOUR);
    expect(await root.nextExpiryAfter(base)).toBe(base + HOUR);
    expect(await root.nextExpiryAfter(base + HOUR)).toBe(base + 2 * HOUR);
    // Other tests' ends in this store lie long before `base`: the read starts after them.
    const from = { at: base - 1, guildId: '', key: '' };
    expect(await root.dueExpiriesAll(base, from, 10)).toEqual([]);
    const again = await backend.open(target);
    try {
      const due = [
        { guildId: SERVER, userId: BOB, endsAt: base + HOUR },
        { guildId: OTHER_SERVER, userId: ALICE, endsAt: base + HOUR },
        { guildId: SERVER, userId: ALICE, endsAt: base + 2 * HOUR },
      ];
      expect(await again.dueExpiriesAll(base + 3 * HOUR, from, 10)).toEqual(due);
      // A page goes on after the last row read, whichever server it was.
      const first = await again.dueExpiriesAll(base + 3 * HOUR, from, 1);
      expect(first).toEqual(due.slice(0, 1));
      const cursor = { at: first[0]!.endsAt, guildId: first[0]!.guildId, key: first[0]!.userId };
      expect(await again.dueExpiriesAll(base + 3 * HOUR, cursor, 10)).toEqual(due.slice(1));
    } finally {
      await again.close();
    }
    await root.forServer(OTHER_SERVER).clearExpiry(ALICE, base + HOUR);
    // A new vote moved Alice's end after the timer read it: clearing the old end leaves the new one.
    await store.scheduleExpiry(ALICE, base + 14 * HOUR);
    await store.clearExpiry(ALICE, base + 2 * HOUR);
    expect(await store.scheduledExpiry(ALICE)).toEqual({ userId: ALICE, endsAt: base + 14 * HOUR });
    await store.clearExpiry(BOB, base + HOUR);
    await store.clearExpiry(ALICE, base + 14 * HOUR);
    expect(await store.scheduledExpiry(BOB)).toBeUndefined();
    expect(await root.nextExpiryAfter(base)).toBeUndefined();
  });

  it('keeps who wants reminders, in their language, across a reopen; off removes them', async () => {
    expect(await store.reminderOptIn(ALICE)).toBeUndefined();
    await store.optInReminders(ALICE, 'de', 1_000);
    await store.optInReminders(ALICE, 'fr', 2_000);
    const again = await backend.open(target);
    try {
      expect(await again.forServer(SERVER).reminderOptIn(ALICE)).toEqual({ userId: ALICE, locale: 'fr', since: 1_000 });
    } finally {
      await again.close();
    }
    expect(await store.optOutReminders(ALICE)).toBe(true);
    expect(await store.optOutReminders(ALICE)).toBe(false);
    expect(await store.reminderOptIn(ALICE)).toBeUndefined();
  });

  it('claims one reminder per vote period: again for the same or a nearby end is refused, a later period is not', async () => {
    const end = 9_100_000_000_000;
    const margin = 10 * 60_000;
    expect(await store.claimReminder(BOB, end, end + 5, end - margin)).toBe(true);
    expect(await store.lastReminder(BOB)).toEqual({ userId: BOB, endsAt: end, at: end + 5, outcome: 'pending' });
    // Two passes over the same expiry at once: one claim wins.
    const twice = await Promise.all([
      store.claimReminder(BOB, end, end + 6, end - margin),
      store.claimReminder(BOB, end, end + 6, end - margin),
    ]);
    expect(twice).toEqual([false, false]);
    await store.settleReminder(BOB, end, 'dm');
    // The end moved a little after the reminder went out: still the same period.
    expect(await store.claimReminder(BOB, end + 60_000, end + 60_000, end + 60_000 - margin)).toBe(false);
    expect(await store.lastReminder(BOB)).toMatchObject({ endsAt: end, outcome: 'dm' });
    // A failure worth retrying gives the claim back; a settled one is not given back.
    const next = end + 12 * HOUR;
    expect(await store.claimReminder(BOB, next, next, next - margin)).toBe(true);
    await store.releaseReminder(BOB, next);
    expect(await store.lastReminder(BOB)).toBeUndefined();
    expect(await store.claimReminder(BOB, next, next + 1, next - margin)).toBe(true);
    await store.settleReminder(BOB, next, 'channel');
    await store.releaseReminder(BOB, next);
    expect(await store.lastReminder(BOB)).toEqual({ userId: BOB, endsAt: next, at: next + 1, outcome: 'channel' });
  });

  it('claims an interaction id once, for any process on the store, until its window closes', async () => {
    const id = '1300000000000000777';
    const claim = (guildId: string, claimed: string, until: number) => ({ guildId, id: claimed, until });
    // Two processes at once, and the same id twice in one batch: the id is claimed once in all.
    const claims = await Promise.all([
      root.claimInteractions([claim(SERVER, id, 10_000), claim(SERVER, '1300000000000000776', 10_000)]),
      root.claimInteractions([claim(OTHER_SERVER, id, 10_000), claim(OTHER_SERVER, id, 10_000)]),
    ]);
    expect(claims[0]![1]).toBe(true);
    expect([claims[0]![0], ...claims[1]!].sort()).toEqual([false, false, true]);
    const again = await backend.open(target);
    try {
      expect(
        await again.claimInteractions([claim(SERVER, id, 10_000), claim(SERVER, '1300000000000000778', 20_000)]),
      ).toEqual([false, true]);
    } finally {
      await again.close();
    }
    expect(await root.forgetHandledInteractions(10_000)).toBe(2);
    // Their window closed: the rows are gone, the later one stays.
    expect(await root.claimInteractions([claim(SERVER, '1300000000000000778', 20_000)])).toEqual([false]);
    expect(await root.claimInteractions([claim(SERVER, id, 20_000)])).toEqual([true]);
    expect(await root.claimInteractions([])).toEqual([]);
    expect(await root.forgetHandledInteractions(10_000)).toBe(0);
  });
});

describe('DATABASE_URL', () => {
  it('reads file: URLs as SQLite files and postgres:// URLs as servers', () => {
    expect(parseDatabaseUrl('file:./data/bot.sqlite')).toEqual({ kind: 'sqlite', file: './data/bot.sqlite' });
    expect(parseDatabaseUrl('file:///var/lib/bot/bot.sqlite')).toEqual({
      kind: 'sqlite',
      file: '/var/lib/bot/bot.sqlite',
    });
    expect(parseDatabaseUrl('postgres://bot:pw@db.internal:5432/bot')).toEqual({
      kind: 'postgres',
      url: 'postgres://bot:pw@db.internal:5432/bot',
    });
    expect(parseDatabaseUrl('postgresql://bot@localhost/bot').kind).toBe('postgres');
  });

  it('refuses anything else with a message saying what is expected', () => {
    expect(() => parseDatabaseUrl('mysql://x')).toThrow('must start with file: (SQLite) or postgres:// (PostgreSQL)');
    expect(() => parseDatabaseUrl('file:')).toThrow('names no file');
  });

  it('creates the SQLite file and its folder on first start', async () => {
    const target = await sqlite.fresh();
    expect(existsSync(path.dirname((target as { file: string }).file))).toBe(false);
    const store = await openStore(target);
    await store.close();
    expect(existsSync((target as { file: string }).file)).toBe(true);
  });
});
