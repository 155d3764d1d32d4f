import type { SiteBreakdownStore, StatsStore, VoteLedger } from './ports.js';
import { num } from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import type { MemberVotesBySite, VoteSite } from './types.js';

const DAY_MS = 86_400_000;

/**
 * One server's vote counts: every list's votes by their weight (a double, or Top.gg's weekend vote,
 * counts as two); votes the first poll found ('seed') mark a period and are never counted.
 */
export function sqlVoteCounts<Base extends ServerScopedClass>(base: Base) {
  return class SqlVoteCounts
    extends base
    implements Pick<VoteLedger, 'votesBetween'>, SiteBreakdownStore, Omit<StatsStore, 'ratingCounts'>
  {
    async votesBetween(from: number, to: number, site?: VoteSite): Promise<Array<{ userId: string; votes: number }>> {
      const rows = await this.query(
        `SELECT user_id, SUM(weight) AS votes FROM votes
         WHERE guild_id = $1 AND voted_at >= $2 AND voted_at < $3 AND source <> 'seed'${site === undefined ? '' : ' AND site = $4'}
         GROUP BY user_id ORDER BY votes DESC, user_id`,
        site === undefined ? [from, to] : [from, to, site],
      );
      return rows.map((row) => ({ userId: String(row.user_id), votes: num(row.votes) }));
    }

    async votesBetweenBySite(from: number, to: number): Promise<MemberVotesBySite[]> {
      const rows = await this.query(
        `SELECT user_id, site, SUM(weight) AS votes FROM votes
         WHERE guild_id = $1 AND voted_at >= $2 AND voted_at < $3 AND source <> 'seed'
         GROUP BY user_id, site ORDER BY user_id, site`,
        [from, to],
      );
      const members = new Map<string, MemberVotesBySite>();
      for (const row of rows) {
        const userId = String(row.user_id);
        const member = members.get(userId) ?? { userId, votes: 0, bySite: {} };
        member.votes += num(row.votes);
        member.bySite[String(row.site)] = num(row.votes);
        members.set(userId, member);
      }
      // The order votesBetween gives.
      return [...members.values()].sort((a, b) => b.votes - a.votes || (a.userId < b.userId ? -1 : 1));
    }

    async votesBySite(from: number, to: number): Promise<Record<VoteSite, number>> {
      const rows = await this.query(
        `SELECT site, SUM(weight) AS votes FROM votes
         WHERE guild_id = $1 AND voted_at >= $2 AND voted_at < $3 AND source <> 'seed'
         GROUP BY site`,
        [from, to],
      );
      return Object.fromEntries(rows.map((row) => [String(row.site), num(row.votes)]));
    }

    async votesPerDay(from: number, days: number): Promise<number[]> {
      const rows = await this.query(
        // SQLite binds a JS number as REAL, so the division is cut to whole days explicitly.
        `SELECT CAST((voted_at - $2) / ${DAY_MS} AS INTEGER) AS day, SUM(weight) AS votes FROM votes
         WHERE guild_id = $1 AND voted_at >= $2 AND voted_at < $3 AND source <> 'seed'
         GROUP BY day`,
        [from, from + days * DAY_MS],
      );
      const perDay = Array.from({ length: days }, () => 0);
      for (const row of rows) perDay[num(row.day)] = num(row.votes);
      return perDay;
    }

    async votesPerDayBySite(from: number, days: number): Promise<Record<VoteSite, number[]>> {
      const rows = await this.query(
        `SELECT CAST((voted_at - $2) / ${DAY_MS} AS INTEGER) AS day, site, SUM(weight) AS votes FROM votes
         WHERE guild_id = $1 AND voted_at >= $2 AND voted_at < $3 AND source <> 'seed'
         GROUP BY day, site ORDER BY site`,
        [from, from + days * DAY_MS],
      );
      const perSite: Record<VoteSite, number[]> = {};
      for (const row of rows) {
        const site = String(row.site);
        perSite[site] ??= Array.from({ length: days }, () => 0);
        perSite[site][num(row.day)] = num(row.votes);
      }
      return perSite;
    }
  };
}
