import type { VoteLedger } from './ports.js';
import { num, placeholders } from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import type { PendingAnnouncement, VoteSite } from './types.js';

const DAY_MS = 86_400_000;

/** One server's votes waiting to be announced, with what their announcement says about the member. */
export function sqlVoteAnnouncements<Base extends ServerScopedClass>(base: Base) {
  return class SqlVoteAnnouncements extends base implements Pick<VoteLedger, 'waitingVotes' | 'markAnnounced'> {
    async waitingVotes(limit: number): Promise<PendingAnnouncement[]> {
      const rows = await this.query(
        `SELECT id, user_id, is_double, voted_at, streak, site FROM votes
         WHERE guild_id = $1 AND announced_at IS NULL AND post_id IS NULL ORDER BY id LIMIT $2`,
        [limit],
      );
      if (rows.length === 0) return [];
      const votes = rows.map((row) => ({ id: num(row.id), userId: String(row.user_id), at: num(row.voted_at) }));
      const counts = await this.#countsUpTo(votes);
      const sites = await this.#sitesToday(votes);
      return rows.map((row) => {
        const id = num(row.id);
        const count = counts.get(id);
        return {
          id,
          userId: String(row.user_id),
          double: num(row.is_double) === 1,
          at: num(row.voted_at),
          site: String(row.site),
          sitesToday: sites.get(id) ?? [String(row.site)],
          streak: num(row.streak),
          first: (count?.earlier ?? 0) === 0,
          monthVotes: count?.month ?? 0,
          totalVotes: count?.total ?? 0,
        };
      });
    }

    /**
     * For each vote: the member's votes before it (any list, any source), and their counted votes up
     * to it by weight, in its calendar month and in all. One query per month the votes fall in
     * (nearly always one).
     */
    async #countsUpTo(
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
    async #sitesToday(
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

    async markAnnounced(ids: readonly number[], messageId: string | null, at: number): Promise<void> {
      if (ids.length === 0) return;
      const list = placeholders(ids.length, 4);
      await this.query(`UPDATE votes SET announced_at = $2, message_id = $3 WHERE guild_id = $1 AND id IN (${list})`, [
        at,
        messageId,
        ...ids,
      ]);
    }
  };
}
