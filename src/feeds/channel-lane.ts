import { RESTJSONErrorCodes } from 'discord.js';
import type { Logger } from '../core/log.js';
import type { FeedEdit, OutboxStore, OutgoingPost } from '../store/index.js';
import { reviewFeedBatchView, type OriginOf } from '../views/review-feed.js';
import { backoffMs, type BackoffPolicy } from '../work/backoff.js';
import { StoreDrained } from '../work/drain-loop.js';
import { classifyFailure, type Failure } from '../work/failure.js';
import { messageBody, type Poster } from '../bot/poster.js';
import type { NamesOf, PostSource } from './post-sources.js';
import type { Translator } from '../i18n/index.js';

export interface ChannelLaneOptions {
  channelId: string;
  store: OutboxStore;
  poster: Poster;
  logger: Logger;
  now: () => number;
  i18n: () => Translator;
  names: NamesOf;
  /** What this channel posts, most urgent first (votes before reviews). Empty: only old work is finished. */
  sources: readonly PostSource[];
  /** Which list besides Guilds a review came from: a redraw keeps its label and link. */
  reviewOrigin?: OriginOf;
  /** Told once when Discord refuses the channel (the log and the audit channel). */
  onParked: (channelId: string, failure: Extract<Failure, { kind: 'refused' }>) => Promise<void>;
  onResumed: (channelId: string) => void;
  /** Discord allows 5 messages per 5 s in a channel: one per 1.1 s stays under it and fills batches. */
  spacingMs?: number;
  backoff?: BackoffPolicy;
  /** While parked, one try in this long finds out whether the fix was made. */
  probeMs?: number;
}

/** A transient failure is retried after 1 s, doubling to a minute: a passing outage costs at most a minute after it ends. */
const LANE_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 60_000 };
const EDITS_PER_PASS = 5;

/**
 * One channel's posts, one at a time, in their own loop: a channel that is slow, refusing or
 * down delays only itself. Work is claimed from the store (content and nonce fixed before the
 * first try) and leaves it only once Discord has it; transient failures retry with backoff for as
 * long as it takes, refusals park the lane until a probe succeeds.
 */
export class ChannelLane extends StoreDrained {
  #failures = 0;
  #retryAt = 0;
  #lastSentAt = 0;
  /** Unknown until the first success asks the store; then kept, so a success costs no extra query. */
  #parked: boolean | undefined;

  constructor(private readonly options: ChannelLaneOptions) {
    // A pass that threw met the store, not Discord (Discord's failures are sorted in #failed).
    super({ logger: options.logger, line: 'channel lane pass failed', fields: { channelId: options.channelId } });
  }

  get channelId(): string {
    return this.options.channelId;
  }

  protected async pass(): Promise<void> {
    const { store, channelId, now } = this.options;
    if (now() < this.#retryAt) return this.loop.wakeAt(this.#retryAt, now());
    while (!this.loop.stopped) {
      for (const edit of await store.dueEdits(channelId, EDITS_PER_PASS)) if (!(await this.#redraw(edit))) return;
      const post = (await store.unsentPosts(channelId, 1))[0] ?? (await this.#claim());
      if (post === undefined) return;
      if (!(await this.#send(post))) return;
    }
  }

  /** The next post to send: claimed from the first source with work; undefined when none has any now. */
  async #claim(): Promise<OutgoingPost | undefined> {
    const { store, channelId, now } = this.options;
    for (const source of this.options.sources) {
      const claim = await source.claim(channelId);
      if (claim === undefined) continue;
      if ('later' in claim) {
        this.loop.wakeAt(claim.later, now());
        continue;
      }
      return (await store.unsentPosts(channelId, 1))[0];
    }
    return undefined;
  }

  /** False when the lane must wait (backoff or parked). */
  async #send(post: OutgoingPost): Promise<boolean> {
    const { store, poster, channelId, logger, now } = this.options;
    const wait = this.#lastSentAt + (this.options.spacingMs ?? 1_100) - now();
    if (wait > 0) await this.loop.sleep(wait);
    if (this.loop.stopped) return false;
    let messageId: string;
    try {
      messageId = await poster.send(channelId, post.body, post.nonce);
    } catch (err) {
      return this.#failed(err, { post });
    }
    this.#lastSentAt = now();
    const held = await store.postSent(post.id, messageId, now());
    await this.#succeeded();
    if (post.kind === 'votes') logger.info({ channelId, messageId, voters: held.votes }, 'votes announced');
    for (const reviewId of held.reviewIds)
      logger.info({ channelId, messageId, reviewId, shared: held.reviewIds.length }, 'review posted to the feed');
    return true;
  }

  /** Redraws a feed message whose review was answered after it was drawn. */
  async #redraw(edit: FeedEdit): Promise<boolean> {
    const { store, poster, channelId, logger, i18n, names, reviewOrigin } = this.options;
    const known = await names(edit.reviews.map((review) => review.authorId));
    const { view } = reviewFeedBatchView(edit.reviews, i18n(), known, reviewOrigin);
    try {
      await poster.edit(channelId, edit.messageId, messageBody(view));
    } catch (err) {
      return this.#failed(err, { edit });
    }
    await store.editDone(edit);
    await this.#succeeded();
    logger.info({ channelId, messageId: edit.messageId }, 'feed post marked answered');
    return true;
  }

  async #succeeded(): Promise<void> {
    this.#failures = 0;
    this.#retryAt = 0;
    if (this.#parked === false) return;
    if (await this.options.store.unparkLane(this.options.channelId)) this.options.onResumed(this.options.channelId);
    this.#parked = false;
  }

  /** Sorts a failure: false stops the pass (the lane waits), true goes on with the next piece of work. */
  async #failed(err: unknown, work: { post?: OutgoingPost; edit?: FeedEdit }): Promise<boolean> {
    const { store, channelId, logger, now } = this.options;
    const failure = classifyFailure(err);
    if (failure.kind === 'transient') {
      this.#failures += 1;
      this.#retryAt = now() + backoffMs(this.#failures, this.options.backoff ?? LANE_BACKOFF);
      logger.warn(
        { err, channelId, attempt: this.#failures, retryInMs: this.#retryAt - now() },
        'Discord did not take a post; trying again after a pause',
      );
      this.loop.wakeAt(this.#retryAt, now());
      return false;
    }
    // A message deleted by hand has nothing left to redraw.
    if (work.edit && failure.code === RESTJSONErrorCodes.UnknownMessage) {
      await store.editDone(work.edit);
      logger.info({ channelId, messageId: work.edit.messageId }, 'feed post was deleted; nothing to mark answered');
      return true;
    }
    if (failure.reason === 'invalid' && work.post) {
      await store.parkPost(work.post.id, `${failure.status} ${failure.code}`);
      logger.error(
        { err, channelId, postId: work.post.id, kind: work.post.kind },
        'Discord refused a post as invalid; it is kept aside and the channel goes on',
      );
      return true;
    }
    this.#parked = true;
    if (await store.parkLane({ channelId, reason: failure.reason, code: failure.code, parkedAt: now() }))
      await this.options.onParked(channelId, failure);
    this.#retryAt = now() + (this.options.probeMs ?? 60_000);
    this.loop.wakeAt(this.#retryAt, now());
    return false;
  }
}
