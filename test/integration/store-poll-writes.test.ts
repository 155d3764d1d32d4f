import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GUILDS_SITE, openStore, type MirrorEntry, type Store, type StoreRoot } from '../../src/store/index.js';
import { storeBackends } from '../support/store-backends.js';

// What a poll writes (savePoll: the mirror whole or only its changes, the totals and the poll's
// outcome at once), the ends it moves in the ledger (setPeriodEnds) and the schedule's ends
// (scheduleExpiries, rescheduleExpiries), on both backends, lists longer than one statement takes among them.

const HOUR = 3_600_000;
const SERVER = '111111111111111111';
const OTHER_SERVER = '222222222222222222';
const T = Date.UTC(2026, 10, 15);
const member = (i: number) => String(720000000000000000n + BigInt(i));
const entry = (i: number, hours = 10, viaDiscord = true): MirrorEntry => ({
  userId: member(i),
  expiresAt: T + hours * HOUR,
  viaDiscord,
});
const totals = (totalVotes: number) => ({ totalVotes, monthlyVotes: 7, polledAt: T });

describe.each(storeBackends('bot-poll-writes-'))('a poll written on $name', (backend) => {
  let root: StoreRoot;
  let store: Store;
  let other: Store;
  beforeAll(async () => {
    root = await openStore(await backend.fresh());
    store = root.forServer(SERVER);
    other = root.forServer(OTHER_SERVER);
  }, 60_000);
  afterAll(() => root?.close());

  const mirrored = async () => (await store.mirrorEntries()).map((e) => [e.userId, e.expiresAt, e.viaDiscord]);

  it('replaces the whole mirror, then writes only changes, with the totals and the outcome each time', async () => {
    await other.savePoll({ entries: [entry(1)], totals: totals(1), poll: { at: T, ok: true } });
    await store.setMirrorEntry(member(9), entry(9));
    expect(
      await store.savePoll({ entries: [entry(1), entry(2)], totals: totals(10), poll: { at: T, ok: true } }),
    ).toEqual({ polledBefore: false });
    // The whole list: a row it does not name (9) goes.
    expect(await mirrored()).toEqual([
      [member(1), T + 10 * HOUR, true],
      [member(2), T + 10 * HOUR, true],
    ]);
    expect(await store.mirrorTotals()).toEqual(totals(10));

    // Changes only: 2 moved and came through the site, 3 is new, 1 went; rows not named stay.
    expect(
      await store.savePoll({
        entries: [entry(2, 11, false), entry(3)],
        removed: [member(1)],
        totals: totals(11),
        poll: { at: T + 1, ok: true },
      }),
    ).toEqual({ polledBefore: true });
    expect(await mirrored()).toEqual([
      [member(2), T + 11 * HOUR, false],
      [member(3), T + 10 * HOUR, true],
    ]);
    expect(await store.mirrorTotals()).toEqual(totals(11));
    expect(await store.lastPoll()).toEqual({ at: T + 1, ok: true });

    // Nothing changed: the totals and the outcome are still written.
    await store.savePoll({ entries: [], removed: [], totals: totals(12), poll: { at: T + 2, ok: true } });
    expect((await mirrored()).length).toBe(2);
    expect(await store.lastPoll()).toEqual({ at: T + 2, ok: true });
    expect(await store.mirrorTotals()).toEqual(totals(12));
    // Another server's mirror is untouched throughout.
    expect((await other.mirrorEntries()).map((e) => e.userId)).toEqual([member(1)]);
  });

  it('writes lists longer than one statement takes, whole and as changes', async () => {
    const many = Array.from({ length: 450 }, (_, i) => entry(100 + i));
    await store.savePoll({ entries: many, totals: totals(450), poll: { at: T, ok: true } });
    expect((await store.mirrorEntries()).length).toBe(450);
    await store.savePoll({
      entries: many.slice(0, 300).map((e) => ({ ...e, expiresAt: e.expiresAt + HOUR })),
      removed: many.slice(300).map((e) => e.userId),
      totals: totals(451),
      poll: { at: T + 1, ok: true },
    });
    const rows = await store.mirrorEntries();
    expect(rows.length).toBe(300);
    expect(rows.every((row) => row.expiresAt === T + 11 * HOUR)).toBe(true);
    expect(await store.mirrorTotals()).toEqual(totals(451));
  });

  it("moves many members' running Guilds periods at once, and no other list's, ended or other server's", async () => {
    const at = T + HOUR;
    const users = Array.from({ length: 230 }, (_, i) => member(1_000 + i));
    await store.acceptVotes(
      users.map((userId) => ({ userId, at: T, double: false, source: 'poll', periodEndsAt: T + 12 * HOUR })),
    );
    await store.acceptVote({
      userId: users[0]!,
      at: T,
      double: false,
      source: 'webhook',
      periodEndsAt: T + 12 * HOUR,
      site: 'topgg',
    });
    await store.acceptVote({
      userId: member(5),
      at: T - 13 * HOUR,
      double: false,
      source: 'poll',
      periodEndsAt: T - HOUR,
    });
    await other.acceptVote({ userId: users[1]!, at: T, double: false, source: 'poll', periodEndsAt: T + 12 * HOUR });

    await store.setPeriodEnds(
      [
        ...users.map((userId, i) => ({ userId, periodEndsAt: T + 5 * HOUR + i })),
        { userId: member(5), periodEndsAt: T + 9 * HOUR },
      ],
      at,
    );
    const running = await store.runningVotes(at, GUILDS_SITE);
    for (const [i, userId] of users.entries()) expect(running.get(userId)).toBe(T + 5 * HOUR + i);
    expect(running.has(member(5))).toBe(false);
    expect((await store.runningVotesOf(users[0]!, at)).find((v) => v.site === 'topgg')?.endsAt).toBe(T + 12 * HOUR);
    expect((await other.runningVotes(at)).get(users[1]!)).toBe(T + 12 * HOUR);
  });
  it("writes many members' ends at once, each kept at a later end another list's vote runs to", async () => {
    const [longer, shorter, guildsOnly] = [member(2_001), member(2_002), member(2_003)];
    const other = (userId: string, hours: number) =>
      store.acceptVote({
        userId,
        at: T,
        double: false,
        source: 'webhook',
        periodEndsAt: T + hours * HOUR,
        site: 'topgg',
      });
    await other(longer, 30);
    await other(shorter, 2);
    const many = Array.from({ length: 250 }, (_, i) => ({ userId: member(3_000 + i), endsAt: T + 12 * HOUR + i }));
    await store.scheduleExpiries([
      { userId: longer, endsAt: T + 12 * HOUR },
      { userId: shorter, endsAt: T + 12 * HOUR },
      { userId: guildsOnly, endsAt: T + 12 * HOUR },
      ...many,
    ]);
    const ends = await store.scheduledExpiries();
    expect([ends.get(longer), ends.get(shorter), ends.get(guildsOnly)]).toEqual([
      T + 30 * HOUR,
      T + 12 * HOUR,
      T + 12 * HOUR,
    ]);
    for (const { userId, endsAt } of many) expect(ends.get(userId)).toBe(endsAt);
    // Written again earlier: Guilds' end moves, the other list's later one stays.
    expect(await store.rescheduleExpiry(longer, T + 11 * HOUR)).toBe(T + 30 * HOUR);
    expect(await store.rescheduleExpiry(shorter, T + 11 * HOUR)).toBe(T + 12 * HOUR);
    expect((await store.scheduledExpiriesOf([longer, shorter])).get(shorter)).toBe(T + 11 * HOUR);
    expect((await store.scheduledExpiry(longer))?.endsAt).toBe(T + 30 * HOUR);

    // Many at once, saying what each replaced: a member scheduled before, one never scheduled.
    const newcomer = member(2_004);
    const moved = many.map(({ userId, endsAt }) => ({ userId, endsAt: endsAt + HOUR }));
    const before = await store.rescheduleExpiries([...moved, { userId: newcomer, endsAt: T + 9 * HOUR }]);
    expect(before.size).toBe(many.length);
    for (const { userId, endsAt } of many) expect(before.get(userId)).toBe(endsAt);
    expect(before.has(newcomer)).toBe(false);
    const after = await store.scheduledExpiries();
    for (const { userId, endsAt } of moved) expect(after.get(userId)).toBe(endsAt);
    expect(after.get(newcomer)).toBe(T + 9 * HOUR);
    expect((await store.rescheduleExpiries([{ userId: longer, endsAt: T + 10 * HOUR }])).get(longer)).toBe(
      T + 30 * HOUR,
    );
    expect((await store.scheduledExpiry(longer))?.endsAt).toBe(T + 30 * HOUR);
  });
});
