import type { Translator } from '../i18n/index.js';
import type { Logger } from '../log.js';
import type { FeedAnswer, Store } from '../store/index.js';
import { reviewFeedView } from '../views/review-feed.js';
import type { ReviewEvent } from '../webhooks/payloads.js';
import { stableNonce, type ChannelPoster } from './channel-poster.js';

export interface ReviewFeedOptions {
  store: Store;
  poster: ChannelPoster;
  /** REVIEW_CHANNEL_ID; without it reviews are not posted, but answers are still recorded. */
  channelId: string | undefined;
  logger: Logger;
  /** The server's language: a feed post answers no member in particular. */
  i18n: () => Translator;
  /** Display names, to show the author's beside the mention; none is fine. */
  names?: (userIds: readonly string[]) => Promise<ReadonlyMap<string, string>>;
}

/** Posts each new review once, and marks its post when the review is answered. */
export class ReviewFeed {
  constructor(private readonly options: ReviewFeedOptions) {}

  /** Guilds retries deliveries: a review that already has a post is not posted again. */
  async onReview(review: ReviewEvent, receivedAt: number): Promise<void> {
    const { store, poster, channelId, logger } = this.options;
    if (channelId === undefined) return;
    if (await store.feedPost(review.id)) {
      logger.info({ reviewId: review.id }, 'review already posted; delivery ignored');
      return;
    }
    const post = {
      reviewId: review.id,
      authorId: review.authorId,
      rating: review.rating,
      content: review.content,
      receivedAt,
      channelId,
    };
    const messageId = await poster.create(
      channelId,
      reviewFeedView({ ...post, messageId: '', answer: null }, this.options.i18n(), await this.#nameOf(post.authorId)),
      stableNonce('r', review.id),
    );
    await store.saveFeedPost({ ...post, messageId });
    logger.info({ reviewId: review.id, messageId }, 'review posted to the feed');
  }

  /** A reply was posted (by the bot's form or reported by Guilds): the feed post shows it. */
  async onAnswered(reviewId: string, answer: FeedAnswer): Promise<void> {
    const post = await this.options.store.markAnswered(reviewId, answer);
    if (!post) return;
    const view = reviewFeedView(post, this.options.i18n(), await this.#nameOf(post.authorId));
    await this.options.poster.edit(post.channelId, post.messageId, view);
    this.options.logger.info({ reviewId, messageId: post.messageId }, 'feed post marked answered');
  }

  async #nameOf(userId: string): Promise<string | undefined> {
    return (await this.options.names?.([userId]))?.get(userId);
  }
}
