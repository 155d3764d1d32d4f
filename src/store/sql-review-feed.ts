import type { ReviewFeedStore } from './ports.js';
import { num, orNull, type Row } from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import type { FeedAnswer, FeedPost, FeedReview } from './types.js';
import { sqlReviewLists, toFeedReview } from './sql-review-lists.js';

/**
 * One server's reviews as the feed shows them (feed_posts), and answers that came before their
 * review (early_answers). The posts that claim reviews are the outbox's (sql-outbox.ts).
 */
export function sqlReviewFeed<Base extends ServerScopedClass>(base: Base) {
  return class SqlReviewFeed extends sqlReviewLists(base) implements ReviewFeedStore {
    async feedPost(reviewId: string): Promise<FeedPost | undefined> {
      const [row] = await this.query('SELECT * FROM feed_posts WHERE guild_id = $1 AND review_id = $2', [reviewId]);
      return row && toFeedPost(row);
    }

    queueReview(review: Omit<FeedReview, 'answer'>): Promise<boolean> {
      return this.db.transaction(async (tx) => {
        const inserted = await this.query(
          `INSERT INTO feed_posts (guild_id, review_id, author_id, rating, content, received_at)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (guild_id, review_id) DO NOTHING RETURNING review_id`,
          [review.reviewId, review.authorId, review.rating, review.content, review.receivedAt],
          tx,
        );
        if (inserted.length === 0) return false;
        const [early] = await this.query(
          'DELETE FROM early_answers WHERE guild_id = $1 AND review_id = $2 RETURNING *',
          [review.reviewId],
          tx,
        );
        if (early)
          await this.query(
            'UPDATE feed_posts SET answered_at = $3, reply_id = $4, answered_by = $5 WHERE guild_id = $1 AND review_id = $2',
            [review.reviewId, num(early.answered_at), orNull(early.reply_id), orNull(early.answered_by)],
            tx,
          );
        return true;
      });
    }

    recordAnswer(reviewId: string, answer: FeedAnswer): Promise<string | null | 'kept'> {
      return this.db.transaction(async (tx) => {
        // A review still waiting is drawn answered when posted; one claimed or shown needs a redraw.
        const [marked] = await this.query(
          `UPDATE feed_posts SET answered_at = $3, reply_id = $4, answered_by = $5,
             edit_due = CASE WHEN post_id IS NULL AND message_id IS NULL THEN 0 ELSE edit_due + 1 END
           WHERE guild_id = $1 AND review_id = $2 AND answered_at IS NULL RETURNING channel_id, post_id, message_id`,
          [reviewId, answer.at, answer.replyId, answer.moderatorId],
          tx,
        );
        if (marked) return marked.post_id === null && marked.message_id === null ? null : orNull(marked.channel_id);
        if (
          (await this.query('SELECT 1 FROM feed_posts WHERE guild_id = $1 AND review_id = $2', [reviewId], tx)).length
        )
          return null;
        await this.query(
          `INSERT INTO early_answers (guild_id, review_id, reply_id, answered_by, answered_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (guild_id, review_id) DO NOTHING`,
          [reviewId, answer.replyId, answer.moderatorId, answer.at],
          tx,
        );
        return 'kept';
      });
    }

    async reviewGone(reviewId: string, at: number): Promise<boolean> {
      const rows = await this.query(
        `UPDATE feed_posts SET gone_at = $3 WHERE guild_id = $1 AND review_id = $2 AND answered_at IS NULL AND gone_at IS NULL
         RETURNING review_id`,
        [reviewId, at],
      );
      return rows.length > 0;
    }
  };
}

function toFeedPost(row: Row): FeedPost {
  return { ...toFeedReview(row), channelId: orNull(row.channel_id), messageId: orNull(row.message_id) };
}
