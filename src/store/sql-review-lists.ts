import type { AgedReviews } from './ports.js';
import { num, orNull, type Row } from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import type { FeedReview, UnansweredPage } from './types.js';

/** One server's reviews as lists: those waiting for the feed, the unanswered (/reviews pending), the ratings. */
export function sqlReviewLists<Base extends ServerScopedClass>(base: Base) {
  return class SqlReviewLists extends base {
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
