import type { VoteLedger } from './ports.js';
import { num, placeholders } from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import type { PendingAnnouncement } from './types.js';
import { sqlAnnouncementFacts } from './sql-announcement-facts.js';

/** One server's votes waiting to be announced, with what their announcement says about the member. */
export function sqlVoteAnnouncements<Base extends ServerScopedClass>(base: Base) {
  return class SqlVoteAnnouncements
    extends sqlAnnouncementFacts(base)
    implements Pick<VoteLedger, 'waitingVotes' | 'markAnnounced'>
  {
    async waitingVotes(limit: number): Promise<PendingAnnouncement[]> {
      const rows = await this.query(
        `SELECT id, user_id, is_double, voted_at, streak, site, source FROM votes
         WHERE guild_id = $1 AND announced_at IS NULL AND post_id IS NULL ORDER BY id LIMIT $2`,
        [limit],
      );
      if (rows.length === 0) return [];
      const votes = rows.map((row) => ({ id: num(row.id), userId: String(row.user_id), at: num(row.voted_at) }));
      const counts = await this.countsUpTo(votes);
      const sites = await this.sitesToday(votes);
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
          recovered: String(row.source) === 'recovered',
          first: (count?.earlier ?? 0) === 0,
          monthVotes: count?.month ?? 0,
          totalVotes: count?.total ?? 0,
        };
      });
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
