import type { ExpiryStore } from './ports.js';
import { IDS_PER_STATEMENT, num, placeholders, ROWS_PER_INSERT, slices, type Row } from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import { GUILDS_SITE, type ScheduledExpiry } from './types.js';

/**
 * The end to write for member `$user` given Guilds' end `$end`: a vote on another list that runs
 * longer keeps the member's end at its own (the voter role stays while any list's vote runs).
 */
function latestEnd(user: string, end: string): string {
  return `COALESCE((SELECT MAX(period_ends_at) FROM votes
    WHERE guild_id = $1 AND user_id = ${user} AND site <> '${GUILDS_SITE}' AND period_ends_at > ${end}), ${end})`;
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
        await this.query(
          `INSERT INTO vote_expiries (guild_id, user_id, ends_at)
           VALUES ${slice.map((_, i) => `($1, $${2 + 2 * i}, ${latestEnd(`$${2 + 2 * i}`, `$${3 + 2 * i}`)})`).join(', ')}
           ON CONFLICT (guild_id, user_id) DO UPDATE SET ends_at = excluded.ends_at`,
          slice.flat(),
        );
      }
    }

    async rescheduleExpiry(userId: string, endsAt: number): Promise<number | undefined> {
      if (this.db.dialect === 'postgres') {
        // One round trip per delivered vote: a statement's CTE reads the row as it was before the
        // statement's own upsert.
        const [row] = await this.query(
          `WITH before AS (SELECT ends_at FROM vote_expiries WHERE guild_id = $1 AND user_id = $2),
             written AS (INSERT INTO vote_expiries (guild_id, user_id, ends_at) VALUES ($1, $2, ${latestEnd('$2', '$3')})
               ON CONFLICT (guild_id, user_id) DO UPDATE SET ends_at = excluded.ends_at)
           SELECT ends_at FROM before`,
          [userId, endsAt],
        );
        return row ? num(row.ends_at) : undefined;
      }
      // SQLite has no writes in a WITH; its statements cost no round trip.
      const before = await this.scheduledExpiry(userId);
      await this.scheduleExpiry(userId, endsAt);
      return before?.endsAt;
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
