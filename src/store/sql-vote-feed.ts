import type { VoteFeedStore } from './ports.js';
import { memberVotesBefore, num } from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import type { LedgerVote, MemberTotals } from './types.js';

/**
 * One server's ledger as the vote API reads it: its votes in the order the ledger took them, and a
 * member's counts. Votes the first poll found ('seed') are left out, as every count leaves them out.
 */
export function sqlVoteFeed<Base extends ServerScopedClass>(base: Base) {
  return class SqlVoteFeed extends base implements VoteFeedStore {
    async ledgerPage(since: number, afterId: number, limit: number): Promise<LedgerVote[]> {
      const rows = await this.query(
        `SELECT id, user_id, site, weight, voted_at, period_ends_at FROM votes
         WHERE guild_id = $1 AND id > $2 AND voted_at >= $3 AND source <> 'seed'
         ORDER BY id LIMIT $4`,
        [afterId, since, limit],
      );
      return rows.map((row) => ({
        id: num(row.id),
        userId: String(row.user_id),
        site: String(row.site),
        weight: num(row.weight),
        votedAt: num(row.voted_at),
        endsAt: num(row.period_ends_at),
      }));
    }

    async memberTotals(userId: string, monthStart: number, at: number): Promise<MemberTotals> {
      const [row] = await this.query(
        `SELECT COALESCE(SUM(weight), 0) AS all_time,
           COALESCE(SUM(CASE WHEN voted_at >= $3 THEN weight ELSE 0 END), 0) AS month
         FROM votes WHERE ${memberVotesBefore('$1', '$2', '< $4')} AND source <> 'seed'`,
        [userId, monthStart, at + 1],
      );
      return { month: num(row?.month ?? 0), allTime: num(row?.all_time ?? 0) };
    }
  };
}
