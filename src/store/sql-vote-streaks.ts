import { num, optionalNum } from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import { type MemberStreak } from './types.js';

/** One server's streaks, read from every list's votes: a vote on any list carries the member's one streak on. */
export function sqlVoteStreaks<Base extends ServerScopedClass>(base: Base) {
  return class SqlVoteStreaks extends base {
    async streakOf(userId: string, now: number, graceMs: number): Promise<number> {
      const [row] = await this.query(
        'SELECT MAX(streak) AS streak FROM votes WHERE guild_id = $1 AND user_id = $2 AND period_ends_at >= $3',
        [userId, now - graceMs],
      );
      return optionalNum(row?.streak) ?? 0;
    }

    async latestStreaks(since: number): Promise<Array<MemberStreak & { periodEndsAt: number }>> {
      // Among a member's votes still in the window the latest has both maxima: a vote that broke a
      // streak came after the grace of the one before, which is then out of any window reaching it.
      const rows = await this.query(
        `SELECT user_id, MAX(streak) AS streak, MAX(period_ends_at) AS period_ends_at FROM votes
         WHERE guild_id = $1 AND period_ends_at >= $2 GROUP BY user_id`,
        [since],
      );
      return rows.map((row) => ({
        userId: String(row.user_id),
        streak: num(row.streak),
        periodEndsAt: num(row.period_ends_at),
      }));
    }
  };
}
