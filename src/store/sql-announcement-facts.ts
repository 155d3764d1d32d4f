import { num, placeholders } from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import type { VoteSite } from './types.js';

const DAY_MS = 86_400_000;

/** What a vote's announcement says about its member: their counts up to it and the lists they voted on that day. */
export function sqlAnnouncementFacts<Base extends ServerScopedClass>(base: Base) {
  return class SqlAnnouncementFacts extends base {
    /**
     * For each vote: the member's votes before it (any list, any source), and their counted votes up
     * to it by weight, in its calendar month and in all. One query per month the votes fall in
     * (nearly always one).
     */
    protected async countsUpTo(
      votes: ReadonlyArray<{ id: number; at: number }>,
    ): Promise<Map<number, { earlier: number; month: number; total: number }>> {
      const byMonth = new Map<number, number[]>();
      for (const vote of votes) {
        const day = new Date(vote.at);
        const start = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1);
        byMonth.set(start, [...(byMonth.get(start) ?? []), vote.id]);
      }
      const counted = `CASE WHEN p.source = 'seed' THEN 0 ELSE p.weight END`;
      const counts = new Map<number, { earlier: number; month: number; total: number }>();
      for (const [monthStart, ids] of byMonth) {
        const list = placeholders(ids.length, 3);
        const rows = await this.query(
          `SELECT v.id,
             SUM(CASE WHEN p.voted_at < v.voted_at THEN 1 ELSE 0 END) AS earlier,
             SUM(CASE WHEN p.voted_at >= $2 THEN ${counted} ELSE 0 END) AS month,
             SUM(${counted}) AS total
           FROM votes v JOIN votes p ON p.guild_id = v.guild_id AND p.user_id = v.user_id AND p.voted_at <= v.voted_at
           WHERE v.guild_id = $1 AND v.id IN (${list})
           GROUP BY v.id`,
          [monthStart, ...ids],
        );
        for (const row of rows)
          counts.set(num(row.id), { earlier: num(row.earlier), month: num(row.month), total: num(row.total) });
      }
      return counts;
    }

    /**
     * For each vote: the lists its member voted on in the 24 hours up to it, first voted first. One
     * ranged read of the members' votes (a join of the votes with themselves cost as much again as
     * the counts).
     */
    protected async sitesToday(
      votes: ReadonlyArray<{ id: number; userId: string; at: number }>,
    ): Promise<Map<number, VoteSite[]>> {
      const users = [...new Set(votes.map((vote) => vote.userId))];
      const from = Math.min(...votes.map((vote) => vote.at)) - DAY_MS;
      const to = Math.max(...votes.map((vote) => vote.at));
      const rows = await this.query(
        `SELECT user_id, site, voted_at FROM votes
         WHERE guild_id = $1 AND voted_at > $2 AND voted_at <= $3 AND user_id IN (${placeholders(users.length, 4)})
         ORDER BY voted_at, id`,
        [from, to, ...users],
      );
      const byMember = new Map<string, Array<{ site: VoteSite; at: number }>>();
      for (const row of rows) {
        const userId = String(row.user_id);
        const list = byMember.get(userId) ?? [];
        list.push({ site: String(row.site), at: num(row.voted_at) });
        byMember.set(userId, list);
      }
      const sites = new Map<number, VoteSite[]>();
      for (const vote of votes) {
        const today = (byMember.get(vote.userId) ?? []).filter((p) => p.at > vote.at - DAY_MS && p.at <= vote.at);
        sites.set(vote.id, [...new Set(today.map((p) => p.site))]);
      }
      return sites;
    }
  };
}
