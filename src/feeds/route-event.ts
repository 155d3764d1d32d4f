import type { ServiceClient } from '../api/index.js';
import type { Logger } from '../log.js';
import { ASSUMED_VOTE_PERIOD_MS, type VoteMirror } from '../mirror/vote-mirror.js';
import type { Store, StoredEvent } from '../store/index.js';
import type { GuildsEvent, VoteEvent } from '../webhooks/payloads.js';
import type { ReviewFeed } from './review-feed.js';
import type { VoteAnnouncer } from './vote-announcer.js';

export interface EventRouteOptions {
  store: Store;
  api: ServiceClient;
  feed: ReviewFeed;
  announcer: VoteAnnouncer;
  mirror: VoteMirror;
  logger: Logger;
  /** Remembers the names a vote delivery carries (Guilds sends them for votes cast through Discord). */
  rememberName?: (userId: string, name: string) => void;
  /** A new vote's period is running until the given time (the voter role and reminders act on it). */
  onNewVote?: (userId: string, periodEndsAt: number) => Promise<void>;
}

/** What each stored webhook event does. The receiver checked its shape before storing it. */
export function eventRoute(options: EventRouteOptions): (event: StoredEvent) => Promise<void> {
  return async ({ payload, receivedAt }) => {
    const event = payload as GuildsEvent;
    switch (event.event) {
      case 'review':
        options.api.forgetMember(event.authorId);
        return options.feed.onReview(event, receivedAt);
      case 'vote':
        return acceptVote(event, receivedAt, options);
      case 'reply':
        if (event.reviewId === undefined) {
          options.logger.info({ authorId: event.authorId }, 'reply webhook names no review; nothing to update');
          return;
        }
        return options.feed.onAnswered(event.reviewId, {
          replyId: event.replyId ?? null,
          moderatorId: null,
          at: receivedAt,
        });
    }
  };
}

/** Deliveries repeat and carry no id: a vote is new unless the member's period is still running. */
async function acceptVote(event: VoteEvent, receivedAt: number, options: EventRouteOptions): Promise<void> {
  const { store, api, announcer, mirror, logger } = options;
  const userId = event.user.id;
  const name = event.user.global_name ?? event.user.username;
  if (name) options.rememberName?.(userId, name);
  api.forgetMember(userId);
  const known = await store.mirrorEntry(userId);
  const periodEndsAt = known && known.expiresAt > receivedAt ? known.expiresAt : receivedAt + ASSUMED_VOTE_PERIOD_MS;
  const fresh = await store.acceptVote({
    userId,
    at: receivedAt,
    double: event.double,
    source: 'webhook',
    periodEndsAt,
  });
  if (fresh) {
    logger.info({ userId, double: event.double }, 'vote accepted');
    announcer.wake();
    await options.onNewVote?.(userId, periodEndsAt);
  } else logger.info({ userId }, 'vote already counted this period; delivery ignored');
  mirror.refreshSoon(userId);
}
