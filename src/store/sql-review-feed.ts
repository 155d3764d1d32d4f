import type { AgedReviews, ReviewFeedStore } from './ports.js';
import { num, orNull, type Row } from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import type { FeedAnswer, FeedPost, FeedReview, UnansweredPage } from './types.js';

/**
 * One server's reviews as the feed shows them (feed_posts), and answers that came before their
 * review (early_answers). The posts that claim reviews are the outbox's (sql-outbox.ts).
 */
export function sqlReviewFeed<Base extends ServerScopedClass>(base: Base) {
  return class SqlReviewFeed extends base implements ReviewFeedStore {
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

    async waitingReviews(limit: number): Promise<FeedReview[]> {
      const rows = await this.query(
        `SELECT * FROM feed_posts WHERE guild_id = $1 AND post_id IS NULL AND message_id IS NULL
         ORDER BY received_at, review_id LIMIT $2`,
        [limit],
      );
      return rows.map(toFeedReview);
    }

    async unansweredReviews(limit: number, offset: number, aged?: AgedReviews): Promise<UnansweredPage> {
      const prefixes = aged?.idPrefixes ?? [];
      // $2 the cut-off, $3… the prefixes; the page's limit and offset after them.
      const like = prefixes.map((_, i) => `review_id LIKE $${i + 3}`).join(' OR ');
      const kept = like === '' ? '' : ` AND NOT ((${like}) AND received_at < $2)`;
      // PostgreSQL refuses a parameter the statement does not use: none without prefixes.
      const agedParams = like === '' ? [] : [aged!.receivedBefore, ...prefixes.map((prefix) => `${prefix}%`)];
      const page = agedParams.length + 2;
      const [rows, [count]] = await Promise.all([
        this.query(
          `SELECT * FROM feed_posts WHERE guild_id = $1 AND answered_at IS NULL AND gone_at IS NULL${kept}
           ORDER BY received_at, review_id LIMIT $${page} OFFSET $${page + 1}`,
          [...agedParams, limit, offset],
        ),
        this.query(
          `SELECT COUNT(*) AS total FROM feed_posts WHERE guild_id = $1 AND answered_at IS NULL AND gone_at IS NULL${kept}`,
          agedParams,
        ),
      ]);
      return { reviews: rows.map(toFeedReview), total: num(count?.total) };
    }

    async ratingCounts(): Promise<Array<{ rating: number; reviews: number }>> {
      const rows = await this.query(
        `SELECT rating, COUNT(*) AS reviews FROM feed_posts WHERE guild_id = $1 AND rating IS NOT NULL
         GROUP BY rating ORDER BY rating`,
      );
      return rows.map((row) => ({ rating: num(row.rating), reviews: num(row.reviews) }));
    }
  };
}

export function toFeedReview(row: Row): FeedReview {
  const answeredAt = row.answered_at;
  return {
    reviewId: String(row.review_id),
    authorId: String(row.author_id),
    rating: row.rating === null || row.rating === undefined ? null : num(row.rating),
    content: String(row.content),
    receivedAt: num(row.received_at),
    answer:
      answeredAt === null || answeredAt === undefined
        ? null
        : { at: num(answeredAt), replyId: orNull(row.reply_id), moderatorId: orNull(row.answered_by) },
  };
}

function toFeedPost(row: Row): FeedPost {
  return { ...toFeedReview(row), channelId: orNull(row.channel_id), messageId: orNull(row.message_id) };
}
