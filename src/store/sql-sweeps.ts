import type { SweepStore } from './root-ports.js';
import { num, optionalNum } from './sql.js';
import type { AllServersClass } from './sql-scoped.js';
import type { DueExpiryOf, SweepCursor, WaitingWork } from './types.js';
import { sqlReminderSweeps } from './sql-reminder-sweeps.js';

/** The most channels one read of due redraws returns. */
const REDRAWS_READ_MAX = 1_000;

/**
 * The statements a process's passes run over every server at once (one due-expiry read, one
 * reminder read, one look for milestones and for lanes with work), instead of one per server:
 * 5,000 servers a process cost 5,000 statements per pass. Keyset pages, so rows of servers another
 * process runs are read past, never stuck at the head of a page.
 */
export function sqlSweeps<Base extends AllServersClass>(base: Base) {
  return class SqlSweeps extends sqlReminderSweeps(base) implements SweepStore {
    async dueExpiriesAll(now: number, after: SweepCursor | undefined, limit: number): Promise<DueExpiryOf[]> {
      const from = after ?? { at: -1, guildId: '', key: '' };
      const rows = await this.db.query(
        `SELECT guild_id, user_id, ends_at FROM vote_expiries
         WHERE ends_at <= $1 AND (ends_at > $2 OR (ends_at = $2 AND (guild_id > $3 OR (guild_id = $3 AND user_id > $4))))
         ORDER BY ends_at, guild_id, user_id LIMIT $5`,
        [now, from.at, from.guildId, from.key, limit],
      );
      return rows.map((row) => ({
        guildId: String(row.guild_id),
        userId: String(row.user_id),
        endsAt: num(row.ends_at),
      }));
    }

    async nextExpiryAfter(now: number): Promise<number | undefined> {
      const [row] = await this.db.query('SELECT MIN(ends_at) AS next FROM vote_expiries WHERE ends_at > $1', [now]);
      return optionalNum(row?.next);
    }

    async serversWithMilestones(): Promise<Set<string>> {
      const rows = await this.db.query('SELECT DISTINCT guild_id FROM milestones');
      return new Set(rows.map((row) => String(row.guild_id)));
    }

    async dueRedrawsAll(): Promise<Array<{ guildId: string; channelId: string }>> {
      // Through feed_posts_edits, the partial index of what waits a redraw: empty most of the time.
      // Bounded all the same: a server no process runs any more keeps its due redraws.
      const rows = await this.db.query(
        `SELECT DISTINCT guild_id, channel_id FROM feed_posts WHERE edit_due > 0 AND message_id IS NOT NULL
         LIMIT ${REDRAWS_READ_MAX}`,
      );
      return rows.map((row) => ({ guildId: String(row.guild_id), channelId: String(row.channel_id) }));
    }

    async workWaitingAll(): Promise<Map<string, WaitingWork>> {
      // Each part through a partial index of what waits (posts_lane, feed_posts_edits, votes_waiting,
      // feed_posts_waiting): a store where nothing waits answers from empty indexes.
      const rows = await this.db.query(
        `SELECT guild_id, channel_id, 'lane' AS what FROM posts WHERE parked IS NULL
         UNION SELECT guild_id, channel_id, 'lane' FROM feed_posts WHERE edit_due > 0 AND message_id IS NOT NULL
         UNION SELECT DISTINCT guild_id, '', 'votes' FROM votes WHERE announced_at IS NULL AND post_id IS NULL
         UNION SELECT DISTINCT guild_id, '', 'reviews' FROM feed_posts WHERE post_id IS NULL AND message_id IS NULL`,
      );
      const waiting = new Map<string, WaitingWork>();
      for (const row of rows) {
        const guildId = String(row.guild_id);
        const work = waiting.get(guildId) ?? { channels: [], votes: false, reviews: false };
        if (row.what === 'votes') work.votes = true;
        else if (row.what === 'reviews') work.reviews = true;
        else if (!work.channels.includes(String(row.channel_id))) work.channels.push(String(row.channel_id));
        waiting.set(guildId, work);
      }
      for (const work of waiting.values()) work.channels.sort();
      return waiting;
    }
  };
}
