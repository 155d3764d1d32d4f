import type { ExpiryStore } from './ports.js';
import { IDS_PER_STATEMENT, num, placeholders, ROWS_PER_INSERT, slices, type Row } from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import { GUILDS_SITE, type ScheduledExpiry } from './types.js';

/**
 * Writes member ends given Guilds' ends (`$2, $3` the first member and end, and on): a vote on
 * another list that runs longer keeps the member's end at its own (the voter role stays while any
 * list's vote runs). One read of the other lists' latest ends for all the rows, joined: a subquery
 * per row cost PostgreSQL a plan per row (a poll's 30 rows: 2.4 ms against 0.6 ms).
 */
function upsertLatestEnds(rows: number): string {
  // PostgreSQL takes an untyped VALUES column for text: the ends are cast to the column's type.
  const values = Array.from({ length: rows }, (_, i) => `($${2 + 2 * i}, CAST($${3 + 2 * i} AS BIGINT))`).join(', ');
  const users = Array.from({ length: rows }, (_, i) => `$${2 + 2 * i}`).join(', ');
  // SQLite needs the WHERE to read ON CONFLICT as the upsert's, not the join's.
  return `INSERT INTO vote_expiries (guild_id, user_id, ends_at)
    SELECT $1, ends.column1, CASE WHEN others.ends_at > ends.column2 THEN others.ends_at ELSE ends.column2 END
    FROM (VALUES ${values}) AS ends
    LEFT JOIN (SELECT user_id, MAX(period_ends_at) AS ends_at FROM votes
      WHERE guild_id = $1 AND site <> '${GUILDS_SITE}' AND user_id IN (${users}) GROUP BY user_id) AS others
      ON others.user_id = ends.column1
    WHERE true
    ON CONFLICT (guild_id, user_id) DO UPDATE SET ends_at = excluded.ends_at`;
}

/**
 * One server's schedule of vote ends (vote_expiries): a row per member whose vote still runs, at the
 * latest end over the lists they voted on. The expiry schedule writes Guilds' ends here; a vote on
 * another list moves an end later as it is recorded (sql-votes.ts).
 */
export function sqlExpiries<Base extends ServerScopedClass>(base: Base) {
  return class SqlExpiries extends base implements ExpiryStore {
    async scheduleExpiry(userId: string, endsAt: number): Promise<void> {
      await this.scheduleExpiries([{ userId, endsAt }]);
    }

    async scheduleExpiries(ends: readonly ScheduledExpiry[]): Promise<void> {
      // One row per member: PostgreSQL refuses a statement that updates a row twice.
      const rows = [...new Map(ends.map((end) => [end.userId, end.endsAt]))];
      for (const slice of slices(rows, ROWS_PER_INSERT)) {
        await this.query(upsertLatestEnds(slice.length), slice.flat());
      }
    }

    async rescheduleExpiry(userId: string, endsAt: number): Promise<number | undefined> {
      return (await this.rescheduleExpiries([{ userId, endsAt }])).get(userId);
    }

    async rescheduleExpiries(ends: readonly ScheduledExpiry[]): Promise<Map<string, number>> {
      if (this.db.dialect !== 'postgres') {
        // SQLite has no writes in a WITH; its statements cost no round trip.
        const before = await this.scheduledExpiriesOf(ends.map((end) => end.userId));
        await this.scheduleExpiries(ends);
        return before;
      }
      const before = new Map<string, number>();
      const rows = [...new Map(ends.map((end) => [end.userId, end.endsAt]))];
      for (const slice of slices(rows, ROWS_PER_INSERT)) {
        // One round trip for a delivered vote or a poll's new ends: a statement's CTE reads the rows
        // as they were before the statement's own upsert.
        const users = slice.map((_, i) => `$${2 + 2 * i}`).join(', ');
        const found = await this.query(
          `WITH before AS (SELECT user_id, ends_at FROM vote_expiries WHERE guild_id = $1 AND user_id IN (${users})),
             written AS (${upsertLatestEnds(slice.length)})
           SELECT user_id, ends_at FROM before`,
          slice.flat(),
        );
        for (const row of found) before.set(String(row.user_id), num(row.ends_at));
      }
      return before;
    }

    async clearExpiry(userId: string, endsAt: number): Promise<void> {
      await this.query('DELETE FROM vote_expiries WHERE guild_id = $1 AND user_id = $2 AND ends_at = $3', [
        userId,
        endsAt,
      ]);
    }

    async scheduledExpiry(userId: string): Promise<ScheduledExpiry | undefined> {
      const [row] = await this.query(
        'SELECT user_id, ends_at FROM vote_expiries WHERE guild_id = $1 AND user_id = $2',
        [userId],
      );
      return row && toExpiry(row);
    }

    async scheduledExpiries(): Promise<Map<string, number>> {
      const rows = await this.query('SELECT user_id, ends_at FROM vote_expiries WHERE guild_id = $1');
      return new Map(rows.map((row) => [String(row.user_id), num(row.ends_at)]));
    }

    async scheduledExpiriesOf(userIds: readonly string[]): Promise<Map<string, number>> {
      const ends = new Map<string, number>();
      for (const slice of slices(userIds, IDS_PER_STATEMENT)) {
        const rows = await this.query(
          `SELECT user_id, ends_at FROM vote_expiries WHERE guild_id = $1 AND user_id IN (${placeholders(slice.length, 2)})`,
          slice,
        );
        for (const row of rows) ends.set(String(row.user_id), num(row.ends_at));
      }
      return ends;
    }
  };
}

function toExpiry(row: Row): ScheduledExpiry {
  return { userId: String(row.user_id), endsAt: num(row.ends_at) };
}
