import type { Db, Row, SqlValue } from './sql.js';
import type {
  FeedAnswer,
  FeedEdit,
  FeedPost,
  FeedReview,
  OutboxStore,
  OutgoingPost,
  ParkedLane,
  PostKind,
  UnansweredPage,
} from './types.js';

export const num = (value: unknown): number => Number(value);
export const orNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
const placeholders = (count: number, from: number) =>
  Array.from({ length: count }, (_, i) => `$${i + from}`).join(', ');

/**
 * One server's rows: every statement carries `guild_id = $1`, the server this store was opened for,
 * so no query can reach another server's rows. Its other parameters start at $2.
 */
export class ServerScoped {
  constructor(
    protected readonly db: Db,
    readonly guildId: string,
  ) {}

  protected query(sql: string, params: readonly SqlValue[] = [], db: Db = this.db): Promise<Row[]> {
    return db.query(sql, [this.guildId, ...params]);
  }
}

/** The outbox half of a server's store: the same SQL on SQLite and PostgreSQL. */
export class SqlOutbox extends ServerScoped implements OutboxStore {
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
      if ((await this.query('SELECT 1 FROM feed_posts WHERE guild_id = $1 AND review_id = $2', [reviewId], tx)).length)
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

  async waitingReviews(limit: number): Promise<FeedReview[]> {
    const rows = await this.query(
      `SELECT * FROM feed_posts WHERE guild_id = $1 AND post_id IS NULL AND message_id IS NULL
       ORDER BY received_at, review_id LIMIT $2`,
      [limit],
    );
    return rows.map(toFeedReview);
  }

  async unansweredReviews(limit: number, offset: number): Promise<UnansweredPage> {
    const [rows, [count]] = await Promise.all([
      this.query(
        `SELECT * FROM feed_posts WHERE guild_id = $1 AND answered_at IS NULL
         ORDER BY received_at, review_id LIMIT $2 OFFSET $3`,
        [limit, offset],
      ),
      this.query('SELECT COUNT(*) AS total FROM feed_posts WHERE guild_id = $1 AND answered_at IS NULL'),
    ]);
    return { reviews: rows.map(toFeedReview), total: num(count?.total) };
  }

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

  async parkLane(lane: ParkedLane): Promise<boolean> {
    const rows = await this.query(
      `INSERT INTO parked_lanes (guild_id, channel_id, reason, code, parked_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (channel_id) DO NOTHING RETURNING channel_id`,
      [lane.channelId, lane.reason, lane.code, lane.parkedAt],
    );
    return rows.length > 0;
  }

  async unparkLane(channelId: string): Promise<boolean> {
    const rows = await this.query(
      'DELETE FROM parked_lanes WHERE guild_id = $1 AND channel_id = $2 RETURNING channel_id',
      [channelId],
    );
    return rows.length > 0;
  }

  async parkedLane(channelId: string): Promise<ParkedLane | undefined> {
    const [row] = await this.query('SELECT * FROM parked_lanes WHERE guild_id = $1 AND channel_id = $2', [channelId]);
    return (
      row && {
        channelId: String(row.channel_id),
        reason: String(row.reason),
        code: num(row.code),
        parkedAt: num(row.parked_at),
      }
    );
  }

  async parkedLanes(): Promise<ParkedLane[]> {
    const rows = await this.query('SELECT * FROM parked_lanes WHERE guild_id = $1 ORDER BY channel_id');
    return rows.map((row) => ({
      channelId: String(row.channel_id),
      reason: String(row.reason),
      code: num(row.code),
      parkedAt: num(row.parked_at),
    }));
  }

  async lanesWithWork(): Promise<string[]> {
    const rows = await this.query(
      `SELECT channel_id FROM posts WHERE guild_id = $1 AND parked IS NULL
       UNION SELECT channel_id FROM feed_posts WHERE guild_id = $1 AND edit_due > 0 AND message_id IS NOT NULL`,
    );
    return [...new Set(rows.map((row) => String(row.channel_id)))].sort();
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
