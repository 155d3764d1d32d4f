import type { Logger } from '../core/log.js';
import type { FeedAnswer, ReviewFeedStore } from '../store/index.js';
import type { ReviewEvent } from '../api/webhook-payloads.js';
import type { Lanes } from './lanes.js';

export interface ReviewFeedOptions {
  store: Pick<ReviewFeedStore, 'queueReview' | 'recordAnswer' | 'reviewGone'>;
  lanes: Pick<Lanes, 'wakeReviews' | 'wakeChannel'>;
  /** REVIEW_CHANNEL_ID; without it reviews are not posted. */
  channelId: string | undefined;
  logger: Logger;
}

/**
 * The review feed's bookkeeping: a new review is stored and its channel's lane posts it; an
 * answer is stored and the lane redraws the post. Neither waits on Discord.
 */
export class ReviewFeed {
  constructor(private readonly options: ReviewFeedOptions) {}

  /**
   * Guilds retries deliveries: a review already known is not posted again. False for such a repeat.
   * A list's review may come without a rating (null).
   */
  async onReview(
    review: Omit<ReviewEvent, 'rating'> & { rating: number | null },
    receivedAt: number,
  ): Promise<boolean> {
    const { store, lanes, channelId, logger } = this.options;
    if (channelId === undefined) return true;
    const fresh = await store.queueReview({
      reviewId: review.id,
      authorId: review.authorId,
      rating: review.rating,
      content: review.content,
      receivedAt,
    });
    if (!fresh) {
      logger.info({ reviewId: review.id }, 'review already known; delivery ignored');
      return false;
    }
    lanes.wakeReviews();
    return true;
  }

  /** A reply was posted (by the bot's form or reported by Guilds): the feed post shows it. */
  /** A reply found the review gone from the service: it leaves the inbox, as nothing can answer it now. */
  async onGone(reviewId: string, at: number): Promise<void> {
    if (await this.options.store.reviewGone(reviewId, at))
      this.options.logger.info({ reviewId }, 'review gone from the service; taken out of the inbox');
  }

  async onAnswered(reviewId: string, answer: FeedAnswer): Promise<void> {
    const { store, lanes, channelId, logger } = this.options;
    if (channelId === undefined) return;
    const redraw = await store.recordAnswer(reviewId, answer);
    if (redraw === 'kept')
      logger.info({ reviewId }, 'reply reported before its review; kept for when the review comes');
    else if (redraw !== null) lanes.wakeChannel(redraw);
  }
}
