import type { Db, Row } from './sql.js';
import type {
  FeedAnswer,
  FeedEdit,
  FeedPost,
  FeedReview,
  OutboxStore,
  OutgoingPost,
  ParkedLane,
  PostKind,
  WorkCounts,
} from './types.js';

export const num = (value: unknown): number => Number(value);
const orNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
const placeholders = (count: number, from: number) =>
  Array.from({ length: count }, (_, i) => `$${i + from}`).join(', ');

/** The outbox half of the SQL store: the same SQL on SQLite and PostgreSQL. */
export class SqlOutbox implements OutboxStore {
  constructor(protected readonly db: Db) {}

  async feedPost(reviewId: string): Promise<FeedPost | undefined> {
    const [row] = await this.db.query('SELECT * FROM feed_posts WHERE review_id = $1', [reviewId]);
    return row && toFeedPost(row);
  }

  queueReview(review: Omit<FeedReview, 'answer'>): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const inserted = await tx.query(
        `INSERT INTO feed_posts (review_id, author_id, rating, content, received_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (review_id) DO NOTHING RETURNING review_id`,
        [review.reviewId, review.authorId, review.rating, review.content, review.receivedAt],
      );
      if (inserted.length === 0) return false;
      const [early] = await tx.query('DELETE FROM early_answers WHERE review_id = $1 RETURNING *', [review.reviewId]);
      if (early)
        await tx.query('UPDATE feed_posts SET answered_at = $2, reply_id = $3, answered_by = $4 WHERE review_id = $1', [
          review.reviewId,
          num(early.answered_at),
          orNull(early.reply_id),
          orNull(early.answered_by),
        ]);
      return true;
    });
  }

  recordAnswer(reviewId: string, answer: FeedAnswer): Promise<string | null | 'kept'> {
    return this.db.transaction(async (tx) => {
      // A review still waiting is drawn answered when posted; one claimed or shown needs a redraw.
      const [marked] = await tx.query(
        `UPDATE feed_posts SET answered_at = $2, reply_id = $3, answered_by = $4,
           edit_due = CASE WHEN post_id IS NULL AND message_id IS NULL THEN 0 ELSE edit_due + 1 END
         WHERE review_id = $1 AND answered_at IS NULL RETURNING channel_id, post_id, message_id`,
        [reviewId, answer.at, answer.replyId, answer.moderatorId],
      );
      if (marked) return marked.post_id === null && marked.message_id === null ? null : orNull(marked.channel_id);
      if ((await tx.query('SELECT 1 FROM feed_posts WHERE review_id = $1', [reviewId])).length > 0) return null;
      await tx.query(
        `INSERT INTO early_answers (review_id, reply_id, answered_by, answered_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (review_id) DO NOTHING`,
        [reviewId, answer.replyId, answer.moderatorId, answer.at],
      );
      return 'kept';
    });
  }

  async waitingReviews(limit: number): Promise<FeedReview[]> {
    const rows = await this.db.query(
      `SELECT * FROM feed_posts WHERE post_id IS NULL AND message_id IS NULL
       ORDER BY received_at, review_id LIMIT $1`,
      [limit],
    );
    return rows.map(toFeedReview);
  }

  createPost(post: Omit<OutgoingPost, 'id'>, items: readonly number[] | readonly string[]): Promise<number> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query(
        'INSERT INTO posts (channel_id, kind, body, nonce, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id',
        [post.channelId, post.kind, JSON.stringify(post.body), post.nonce, post.createdAt],
      );
      const id = num(row!.id);
      const claimed =
        post.kind === 'votes'
          ? await tx.query(
              `UPDATE votes SET post_id = $1 WHERE id IN (${placeholders(items.length, 2)})
               AND post_id IS NULL AND announced_at IS NULL RETURNING id`,
              [id, ...(items as readonly number[])],
            )
          : await tx.query(
              `UPDATE feed_posts SET post_id = $1, channel_id = $2
               WHERE review_id IN (${placeholders(items.length, 3)}) AND post_id IS NULL AND message_id IS NULL
               RETURNING review_id`,
              [id, post.channelId, ...(items as readonly string[])],
            );
      // Only one process acts on a store; this guards the claim against a bug, not a race.
      if (claimed.length !== items.length) throw new Error(`${post.kind} claimed by another post meanwhile`);
      return id;
    });
  }

  async unsentPosts(channelId: string, limit: number): Promise<OutgoingPost[]> {
    const rows = await this.db.query(
      'SELECT * FROM posts WHERE channel_id = $1 AND parked IS NULL ORDER BY id LIMIT $2',
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
      const votes = await tx.query(
        'UPDATE votes SET announced_at = $3, message_id = $2 WHERE post_id = $1 RETURNING id',
        [postId, messageId, at],
      );
      const reviews = await tx.query(
        'UPDATE feed_posts SET message_id = $2 WHERE post_id = $1 RETURNING review_id, received_at',
        [postId, messageId],
      );
      await tx.query('DELETE FROM posts WHERE id = $1', [postId]);
      const order = reviews.sort((a, b) => num(a.received_at) - num(b.received_at));
      return { reviewIds: order.map((row) => String(row.review_id)), votes: votes.length };
    });
  }

  async parkPost(postId: number, reason: string): Promise<void> {
    await this.db.query('UPDATE posts SET parked = $2 WHERE id = $1', [postId, reason]);
  }

  async dueEdits(channelId: string, limit: number): Promise<FeedEdit[]> {
    const messages = await this.db.query(
      `SELECT DISTINCT message_id FROM feed_posts
       WHERE channel_id = $1 AND edit_due > 0 AND message_id IS NOT NULL ORDER BY message_id LIMIT $2`,
      [channelId, limit],
    );
    const edits: FeedEdit[] = [];
    for (const { message_id: messageId } of messages) {
      const rows = await this.db.query(
        'SELECT * FROM feed_posts WHERE message_id = $1 ORDER BY received_at, review_id',
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
          await tx.query('UPDATE feed_posts SET edit_due = 0 WHERE review_id = $1 AND edit_due = $2', [
            review.reviewId,
            review.editDue,
          ]);
    });
  }

  async parkLane(lane: ParkedLane): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO parked_lanes (channel_id, reason, code, parked_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (channel_id) DO NOTHING RETURNING channel_id`,
      [lane.channelId, lane.reason, lane.code, lane.parkedAt],
    );
    return rows.length > 0;
  }

  async unparkLane(channelId: string): Promise<boolean> {
    const rows = await this.db.query('DELETE FROM parked_lanes WHERE channel_id = $1 RETURNING channel_id', [
      channelId,
    ]);
    return rows.length > 0;
  }

  async parkedLane(channelId: string): Promise<ParkedLane | undefined> {
    const [row] = await this.db.query('SELECT * FROM parked_lanes WHERE channel_id = $1', [channelId]);
    return (
      row && {
        channelId: String(row.channel_id),
        reason: String(row.reason),
        code: num(row.code),
        parkedAt: num(row.parked_at),
      }
    );
  }

  async lanesWithWork(): Promise<string[]> {
    const rows = await this.db.query(
      `SELECT channel_id FROM posts WHERE parked IS NULL
       UNION SELECT channel_id FROM feed_posts WHERE edit_due > 0 AND message_id IS NOT NULL`,
    );
    return [...new Set(rows.map((row) => String(row.channel_id)))].sort();
  }

  async workCounts(): Promise<WorkCounts> {
    const [row] = await this.db.query(
      `SELECT
         (SELECT COUNT(*) FROM events WHERE handled_at IS NULL) AS events,
         (SELECT COUNT(*) FROM votes WHERE announced_at IS NULL) AS votes,
         (SELECT COUNT(*) FROM feed_posts WHERE message_id IS NULL) AS reviews,
         (SELECT COUNT(*) FROM feed_posts WHERE edit_due > 0 AND message_id IS NOT NULL) AS edits,
         (SELECT COUNT(*) FROM parked_lanes) AS parked_lanes,
         (SELECT COUNT(*) FROM posts WHERE parked IS NOT NULL) AS parked_posts`,
    );
    return {
      events: num(row!.events),
      votes: num(row!.votes),
      reviews: num(row!.reviews),
      edits: num(row!.edits),
      parkedLanes: num(row!.parked_lanes),
      parkedPosts: num(row!.parked_posts),
    };
  }
}

function toFeedReview(row: Row): FeedReview {
  const answeredAt = row.answered_at;
  return {
    reviewId: String(row.review_id),
    authorId: String(row.author_id),
    rating: num(row.rating),
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
