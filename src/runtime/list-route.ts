import type { Logger } from '../core/log.js';
import type { ReviewFeed } from '../feeds/review-feed.js';
import { listReviewId, SITE_FACTS, type AdaptedSiteId, type ListEvent } from '../lists/index.js';
import type { VoteSink } from '../mirror/vote-sink.js';
import type { VoteLedger } from '../store/index.js';

export interface ListRouteOptions {
  store: Pick<VoteLedger, 'acceptVote'>;
  votes: Pick<VoteSink, 'accepted' | 'newVote'>;
  logger: Logger;
  /** The listing's last delivery (and last test), for /setup status. */
  listingDelivered: (site: AdaptedSiteId, at: number, test: boolean) => Promise<void>;
  rememberName?: (userId: string, name: string) => void;
  streakGraceMs?: number;
  /** The review feed, where a list's reviews go beside Guilds' (labelled with the list). */
  feed?: Pick<ReviewFeed, 'onReview'>;
}

/**
 * A stored delivery from a list besides Guilds (the receiver verified and read it): a vote goes in
 * the ledger with its list, the list's id for it and its weight, and is announced like a Guilds
 * vote when new; a test is only noted (/setup status), never announced nor counted.
 */
export async function listRoute(
  event: ListEvent & { site: AdaptedSiteId },
  receivedAt: number,
  options: ListRouteOptions,
): Promise<'stored' | 'duplicate'> {
  // A vote read back from the site's API says nothing of its webhook: the webhook stays as silent as it was.
  if (event.recovered !== true) await options.listingDelivered(event.site, receivedAt, event.kind === 'test');
  if (event.kind === 'test') {
    options.logger.info({ site: event.site }, 'test delivery from a list received');
    return 'stored';
  }
  if (event.kind === 'review') return listReview(event, receivedAt, options);
  const userId = event.memberId;
  if (event.weightSent !== undefined)
    options.logger.warn(
      { userId, site: event.site, weightSent: event.weightSent, weight: event.weight },
      "a list sent a vote weight outside the range its docs give; counted as the range's nearest end",
    );
  if (event.memberName) options.rememberName?.(userId, event.memberName);
  const recovered = event.recovered === true;
  // A vote read back after its period ended is counted, not announced: "voted" would be news of a vote long over.
  const ended = recovered && event.until <= receivedAt;
  const fresh = await options.store.acceptVote({
    userId,
    at: event.at,
    double: event.weight > 1,
    source: recovered ? 'recovered' : 'webhook',
    ...(ended ? { announcedAt: receivedAt } : {}),
    periodEndsAt: event.until,
    site: event.site,
    ...(event.siteEventId === undefined ? {} : { siteEventId: event.siteEventId }),
    weight: event.weight,
    dedupeWindowMs: SITE_FACTS[event.site].dedupeWindowMs,
    ...(options.streakGraceMs === undefined ? {} : { streakGraceMs: options.streakGraceMs }),
  });
  const how = recovered ? { recovered, ended } : {};
  if (fresh) {
    options.logger.info({ userId, site: event.site, weight: event.weight, ...how }, 'vote accepted');
    options.votes.accepted();
    if (!ended) await options.votes.newVote(userId, event.until, event.site);
  } else options.logger.info({ userId, site: event.site, ...how }, 'vote already recorded; delivery ignored');
  return fresh ? 'stored' : 'duplicate';
}

/**
 * A list's review goes to the same feed as Guilds' under the list's review id (lists/review-id.ts),
 * which labels it with the list and gives it a link to the site instead of Reply. A review with no
 * rating keeps none: it shows no stars and is left out of /stats' ratings.
 */
async function listReview(
  event: ListEvent & { site: AdaptedSiteId },
  receivedAt: number,
  options: ListRouteOptions,
): Promise<'stored' | 'duplicate'> {
  const { review } = event;
  if (!review || !options.feed) return 'stored';
  if (event.memberName) options.rememberName?.(event.memberId, event.memberName);
  const fresh = await options.feed.onReview(
    {
      event: 'review',
      guildId: event.guildId,
      id: listReviewId(event.site, review.id),
      authorId: event.memberId,
      content: review.content,
      rating: review.rating ?? null,
    },
    receivedAt,
  );
  return fresh ? 'stored' : 'duplicate';
}
