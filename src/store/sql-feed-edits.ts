import { num } from './sql.js';
import { toFeedReview } from './sql-review-lists.js';
import type { ServerScopedClass } from './sql-scoped.js';
import type { FeedEdit } from './types.js';

/** One server's feed messages to redraw: a review answered or gone after its message was posted. */
export function sqlFeedEdits<Base extends ServerScopedClass>(base: Base) {
  return class SqlFeedEdits extends base {
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
  };
}
