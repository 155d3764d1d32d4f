import type { OutboxStore } from './ports.js';
import { num, placeholders, type Row } from './sql.js';
import { toFeedReview } from './sql-review-feed.js';
import type { ServerScopedClass } from './sql-scoped.js';
import type { FeedEdit, OutgoingPost, ParkedLane, PostKind } from './types.js';

/**
 * One server's outbox: messages claimed for a channel and not sent yet (posts), the votes and
 * reviews they claim, feed messages to redraw, and channels Discord refuses (parked_lanes).
 */
export function sqlOutbox<Base extends ServerScopedClass>(base: Base) {
  return class SqlOutbox extends base implements OutboxStore {
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

    async dueEdits(channelId: string, limit: number): Promise<FeedEdit[]> {
      const messages = await this.query(
        `SELECT DISTINCT message_id FROM feed_posts
         WHERE guild_id = $1 AND channel_id = $2 AND edit_due > 0 AND message_id IS NOT NULL
         ORDER BY message_id LIMIT $3`,
        [channelId, limit],
      );
      const edits: FeedEdit[] = [];
      for (const { message_id: messageId } of messages) {
        const rows = await this.query(
          'SELECT * FROM feed_posts WHERE guild_id = $1 AND message_id = $2 ORDER BY received_at, review_id',
          [String(messageId)],
        );
        edits.push({
          channelId,
          messageId: String(messageId),
          reviews: rows.map((row) => ({ ...toFeedReview(row), editDue: num(row.edit_due) })),
        });
      }
      return edits;
    }

    editDone(edit: FeedEdit): Promise<void> {
      return this.db.transaction(async (tx) => {
        for (const review of edit.reviews)
          if (review.editDue > 0)
            await this.query(
              'UPDATE feed_posts SET edit_due = 0 WHERE guild_id = $1 AND review_id = $2 AND edit_due = $3',
              [review.reviewId, review.editDue],
              tx,
            );
      });
    }

    parkLane(lane: ParkedLane): Promise<boolean> {
      return this.changed(
        `INSERT INTO parked_lanes (guild_id, channel_id, reason, code, parked_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (channel_id) DO NOTHING RETURNING channel_id`,
        [lane.channelId, lane.reason, lane.code, lane.parkedAt],
      );
    }

    unparkLane(channelId: string): Promise<boolean> {
      return this.changed('DELETE FROM parked_lanes WHERE guild_id = $1 AND channel_id = $2 RETURNING channel_id', [
        channelId,
      ]);
    }

    async parkedLane(channelId: string): Promise<ParkedLane | undefined> {
      const [row] = await this.query('SELECT * FROM parked_lanes WHERE guild_id = $1 AND channel_id = $2', [channelId]);
      return row && toParkedLane(row);
    }

    async parkedLanes(): Promise<ParkedLane[]> {
      const rows = await this.query('SELECT * FROM parked_lanes WHERE guild_id = $1 ORDER BY channel_id');
      return rows.map(toParkedLane);
    }
  };
}

function toParkedLane(row: Row): ParkedLane {
  return {
    channelId: String(row.channel_id),
    reason: String(row.reason),
    code: num(row.code),
    parkedAt: num(row.parked_at),
  };
}
