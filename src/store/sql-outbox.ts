import type { OutboxStore } from './ports.js';
import { num, placeholders } from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import type { OutgoingPost, PostKind } from './types.js';
import { sqlParkedLanes } from './sql-parked-lanes.js';
import { sqlFeedEdits } from './sql-feed-edits.js';

/**
 * One server's outbox: messages claimed for a channel and not sent yet (posts), the votes and
 * reviews they claim, feed messages to redraw, and channels Discord refuses (parked_lanes).
 */
export function sqlOutbox<Base extends ServerScopedClass>(base: Base) {
  return class SqlOutbox extends sqlFeedEdits(sqlParkedLanes(base)) implements OutboxStore {
    createPost(post: Omit<OutgoingPost, 'id'>, items: readonly number[] | readonly string[]): Promise<number> {
      return this.db.transaction(async (tx) => {
        const [row] = await this.query(
          `INSERT INTO posts (guild_id, channel_id, kind, body, nonce, created_at) VALUES ($1, $2, $3, $4, $5, $6)
           RETURNING id`,
          [post.channelId, post.kind, JSON.stringify(post.body), post.nonce, post.createdAt],
          tx,
        );
        const id = num(row!.id);
        const claimed =
          post.kind === 'votes'
            ? await this.query(
                `UPDATE votes SET post_id = $2 WHERE guild_id = $1 AND id IN (${placeholders(items.length, 3)})
                 AND post_id IS NULL AND announced_at IS NULL RETURNING id`,
                [id, ...(items as readonly number[])],
                tx,
              )
            : await this.query(
                `UPDATE feed_posts SET post_id = $2, channel_id = $3
                 WHERE guild_id = $1 AND review_id IN (${placeholders(items.length, 4)})
                 AND post_id IS NULL AND message_id IS NULL RETURNING review_id`,
                [id, post.channelId, ...(items as readonly string[])],
                tx,
              );
        // Only one process acts on a store; this guards the claim against a bug, not a race.
        if (claimed.length !== items.length) throw new Error(`${post.kind} claimed by another post meanwhile`);
        return id;
      });
    }

    async unsentPosts(channelId: string, limit: number): Promise<OutgoingPost[]> {
      const rows = await this.query(
        'SELECT * FROM posts WHERE guild_id = $1 AND channel_id = $2 AND parked IS NULL ORDER BY id LIMIT $3',
        [channelId, limit],
      );
      return rows.map((r) => ({
        id: num(r.id),
        channelId: String(r.channel_id),
        kind: String(r.kind) as PostKind,
        body: JSON.parse(String(r.body)) as unknown,
        nonce: String(r.nonce),
        createdAt: num(r.created_at),
      }));
    }

    postSent(postId: number, messageId: string, at: number): Promise<{ reviewIds: string[]; votes: number }> {
      return this.db.transaction(async (tx) => {
        const votes = await this.query(
          'UPDATE votes SET announced_at = $4, message_id = $3 WHERE guild_id = $1 AND post_id = $2 RETURNING id',
          [postId, messageId, at],
          tx,
        );
        const reviews = await this.query(
          'UPDATE feed_posts SET message_id = $3 WHERE guild_id = $1 AND post_id = $2 RETURNING review_id, received_at',
          [postId, messageId],
          tx,
        );
        await this.query('DELETE FROM posts WHERE guild_id = $1 AND id = $2', [postId], tx);
        const order = reviews.sort((a, b) => num(a.received_at) - num(b.received_at));
        return { reviewIds: order.map((row) => String(row.review_id)), votes: votes.length };
      });
    }

    async parkPost(postId: number, reason: string): Promise<void> {
      await this.query('UPDATE posts SET parked = $3 WHERE guild_id = $1 AND id = $2', [postId, reason]);
    }
  };
}
