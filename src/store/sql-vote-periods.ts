import { num, ROWS_PER_INSERT, slices } from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import { GUILDS_SITE, type RunningListVote, type VoteSite } from './types.js';

/** One server's running votes: when each ends (a refresh or poll moves it), who votes now, whose end is still assumed. */
export function sqlVotePeriods<Base extends ServerScopedClass>(base: Base) {
  return class SqlVotePeriods extends base {
    async setPeriodEnd(userId: string, at: number, periodEndsAt: number, site: VoteSite = GUILDS_SITE): Promise<void> {
      if (site === GUILDS_SITE) return this.setPeriodEnds([{ userId, periodEndsAt }], at);
      await this.query(
        'UPDATE votes SET period_ends_at = $4 WHERE guild_id = $1 AND user_id = $2 AND period_ends_at > $3 AND site = $5',
        [userId, at, periodEndsAt, site],
      );
    }

    async setPeriodEnds(ends: ReadonlyArray<{ userId: string; periodEndsAt: number }>, at: number): Promise<void> {
      // One row per member, as an UPDATE … FROM takes one of several matches at random.
      const rows = [...new Map(ends.map((end) => [end.userId, end.periodEndsAt]))];
      for (const slice of slices(rows, ROWS_PER_INSERT)) {
        // PostgreSQL takes an untyped VALUES column for text: the ends are cast to the column's type.
        const values = slice.map((_, i) => `($${4 + 2 * i}, CAST($${5 + 2 * i} AS BIGINT))`).join(', ');
        const params = [at, GUILDS_SITE, ...slice.flat()];
        const votes = `UPDATE votes SET period_ends_at = ends.column2 FROM (VALUES ${values}) AS ends
           WHERE votes.guild_id = $1 AND votes.user_id = ends.column1 AND votes.period_ends_at > $2 AND votes.site = $3`;
        // The scheduled end moves with the vote's: a process killed between the two left the assumed end
        // scheduled under a confirmed vote, and no restart looked at it again. One statement on PostgreSQL;
        // on SQLite the schedule first (a stop between leaves the vote unconfirmed, which a start refreshes).
        const schedule = `UPDATE vote_expiries SET ends_at = ends.column2 FROM (VALUES ${values}) AS ends
           WHERE vote_expiries.guild_id = $1 AND vote_expiries.user_id = ends.column1 AND ends.column2 > $2
             AND vote_expiries.ends_at <> ends.column2 AND NOT EXISTS (SELECT 1 FROM votes AS other
               WHERE other.guild_id = $1 AND other.user_id = ends.column1 AND other.site <> $3
                 AND other.period_ends_at > ends.column2)`;
        if (this.db.dialect === 'postgres') {
          await this.query(`WITH moved AS (${votes} RETURNING 1) ${schedule}`, params);
          continue;
        }
        await this.query(schedule, params);
        await this.query(votes, params);
      }
    }

    async runningVotes(at: number, site?: VoteSite): Promise<Map<string, number>> {
      const rows = await this.query(
        `SELECT user_id, MAX(period_ends_at) AS period_ends_at FROM votes
         WHERE guild_id = $1 AND period_ends_at > $2${site === undefined ? '' : ' AND site = $3'} GROUP BY user_id`,
        site === undefined ? [at] : [at, site],
      );
      return new Map(rows.map((row) => [String(row.user_id), num(row.period_ends_at)]));
    }

    async runningVotesOf(userId: string, at: number): Promise<RunningListVote[]> {
      const rows = await this.query(
        `SELECT site, voted_at, period_ends_at, weight FROM (
           SELECT site, voted_at, period_ends_at, weight,
             ROW_NUMBER() OVER (PARTITION BY site ORDER BY period_ends_at DESC, id DESC) AS latest
           FROM votes WHERE guild_id = $1 AND user_id = $2 AND period_ends_at > $3) AS running
         WHERE latest = 1 ORDER BY voted_at, site`,
        [userId, at],
      );
      return rows.map((row) => ({
        site: String(row.site),
        votedAt: num(row.voted_at),
        endsAt: num(row.period_ends_at),
        weight: num(row.weight),
      }));
    }

    async unconfirmedVoters(now: number, periodMs: number): Promise<string[]> {
      const rows = await this.query(
        `SELECT DISTINCT user_id FROM votes
         WHERE guild_id = $1 AND source = 'webhook' AND period_ends_at > $2 AND period_ends_at - voted_at = $3
           AND site = $4`,
        [now, periodMs, GUILDS_SITE],
      );
      return rows.map((row) => String(row.user_id));
    }
  };
}
