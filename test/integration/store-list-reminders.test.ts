import { describe, expect, it } from '@jest/globals';
import { openStore, type NewVote } from '../../src/store/index.js';
import { migrate, MIGRATIONS } from '../../src/store/migrations.js';
import { openPostgres } from '../../src/store/postgres.js';
import { openSqlite } from '../../src/store/sqlite.js';
import { storeBackends } from '../support/store-backends.js';

// Reminders per list (issue 34): reminders_sent keyed per member per list (the reminders before
// kept as Guilds'), and the reminder pass's read of the votes that ran out.

const HOUR = 3_600_000;
const SERVER = '111111111111111111';
const ALICE = '284102390141648897';
const BOB = '593031275438718986';
const CAROL = '712345678901234567';
const DAVE = '812345678901234567';
const T = Date.UTC(2026, 10, 15);

const backends = storeBackends('bot-list-reminders-');

const vote = (userId: string, site: string, at: number, hours: number): NewVote => ({
  userId,
  at,
  double: false,
  source: 'webhook',
  periodEndsAt: at + hours * HOUR,
  site,
});

describe.each(backends)('reminders per list on $name', (backend) => {
  it("migrates the reminders sent before as Guilds', and then claims one per list", async () => {
    const target = await backend.fresh();
    const db = target.kind === 'postgres' ? openPostgres(target.url) : openSqlite(target.file);
    await migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= 11),
    );
    await db.query(
      `INSERT INTO reminders_sent (guild_id, user_id, ends_at, at, outcome) VALUES ($1, $2, $3, $4, 'dm')`,
      [SERVER, ALICE, T, T + 1_000],
    );
    await db.close();
    const root = await openStore(target);
    try {
      const store = root.forServer(SERVER);
      // A Guilds reminder's record names no list, as before.
      expect(await store.lastReminder(ALICE)).toEqual({
        userId: ALICE,
        endsAt: T,
        at: T + 1_000,
        outcome: 'dm',
      });
      // The Guilds period kept is reminded already; Top.gg's of the same end is another list's.
      expect(await store.claimReminder(ALICE, T + 60_000, T + 2_000, T - 600_000)).toBe(false);
      expect(await store.claimReminder(ALICE, T + 60_000, T + 2_000, T - 600_000, 'topgg')).toBe(true);
      await store.settleReminder(ALICE, T + 60_000, 'dm', 'topgg');
      expect(await store.claimReminder(ALICE, T + 60_000, T + 3_000, T - 600_000, 'topgg')).toBe(false);
      expect(await store.lastReminder(ALICE)).toMatchObject({ site: 'topgg', outcome: 'dm' });
    } finally {
      await root.close();
    }
  }, 60_000);

  it('reads the opted-in members’ votes that ran out: each list’s, and Guilds’ only while another list runs on', async () => {
    const root = await openStore(await backend.fresh());
    try {
      const store = root.forServer(SERVER);
      for (const userId of [ALICE, CAROL, DAVE]) await store.optInReminders(userId, 'de', T);
      await store.acceptVotes([
        // Alice: Top.gg ends first, then Guilds (Discollab still runs), then Discollab.
        vote(ALICE, 'guilds', T, 12),
        vote(ALICE, 'topgg', T, 6),
        vote(ALICE, 'discollab', T, 20),
        // Bob never asked for reminders.
        vote(BOB, 'topgg', T, 6),
        // Carol voted on Top.gg again once her first vote there ran out.
        vote(CAROL, 'topgg', T, 6),
        // Dave is on Guilds only: the expiry schedule reminds him, as always.
        vote(DAVE, 'guilds', T, 12),
      ]);
      expect(await store.acceptVote(vote(CAROL, 'topgg', T + 7 * HOUR, 12))).toBe(true);
      const due = async (after: number, upTo: number, limit = 100) =>
        (await root.dueListRemindersAll(after, upTo, undefined, limit)).map(({ key: _key, ...rest }) => rest);
      expect(await root.nextListReminderAfter(T)).toBe(T + 6 * HOUR);
      expect(await due(T, T + 13 * HOUR)).toEqual([
        { guildId: SERVER, userId: ALICE, site: 'topgg', endsAt: T + 6 * HOUR, locale: 'de' },
        { guildId: SERVER, userId: ALICE, site: 'guilds', endsAt: T + 12 * HOUR, locale: 'de' },
      ]);
      expect(await due(T + 13 * HOUR, T + 21 * HOUR)).toEqual([
        { guildId: SERVER, userId: CAROL, site: 'topgg', endsAt: T + 19 * HOUR, locale: 'de' },
        { guildId: SERVER, userId: ALICE, site: 'discollab', endsAt: T + 20 * HOUR, locale: 'de' },
      ]);
      // A page goes on after its last row.
      const [first, ...none] = await root.dueListRemindersAll(T, T + 13 * HOUR, undefined, 1);
      expect(none).toEqual([]);
      const rest = await root.dueListRemindersAll(
        T,
        T + 13 * HOUR,
        { at: first!.endsAt, guildId: SERVER, key: first!.key },
        5,
      );
      expect(rest.map((r) => r.site)).toEqual(['guilds']);
      expect(await root.nextListReminderAfter(T + 20 * HOUR)).toBeUndefined();
    } finally {
      await root.close();
    }
  }, 60_000);
});
