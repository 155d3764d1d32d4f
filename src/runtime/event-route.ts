import type { ServiceClient } from '../api/index.js';
import type { ReviewFeed } from '../feeds/review-feed.js';
import type { Logger } from '../core/log.js';
import { ASSUMED_VOTE_PERIOD_MS } from '../mirror/mirror-options.js';
import type { VoteMirror } from '../mirror/vote-mirror.js';
import type { VoteSink } from '../mirror/vote-sink.js';
import type { StoredEvent, VoteLedger } from '../store/index.js';

/** What handling made of a stored delivery, for the delivery log: new, or a repeat of one known already. */
export type HandledOutcome = 'stored' | 'duplicate';

/** What a server's route reads of an event: a stored delivery, or a vote read back from a list's API. */
export type RoutedEvent = Pick<StoredEvent, 'kind' | 'payload' | 'receivedAt'> & Partial<StoredEvent>;
import type { GuildsEvent, VoteEvent } from '../api/webhook-payloads.js';
import { siteOfEventKind, type AdaptedSiteId, type ListEvent } from '../lists/index.js';
import { listRoute } from './list-route.js';

export interface InboxRouteOptions {
  store: Pick<VoteLedger, 'acceptVote'>;
  api: Pick<ServiceClient, 'forgetMember'>;
  feed: Pick<ReviewFeed, 'onReview' | 'onAnswered'>;
  /** Where a new vote goes: the vote channel's lane announces it (accepted), the schedule acts on its period (newVote). */
  votes: Pick<VoteSink, 'accepted' | 'newVote'>;
  mirror: Pick<VoteMirror, 'refreshSoon' | 'knownEnd'>;
  logger: Logger;
  /** Remembers the names a vote delivery carries (Guilds sends them for votes cast through Discord). */
  rememberName?: (userId: string, name: string) => void;
  /** The server's streak grace window. */
  streakGraceMs?: number;
  /** A list's delivery was handled: its listing's last delivery (and last test), for /setup status. */
  listingDelivered?: (site: AdaptedSiteId, at: number, test: boolean) => Promise<void>;
}

/**
 * What each stored webhook event does: store work only, so the inbox never waits on Discord (the
 * lanes post). The receiver checked its shape before storing it.
 *
 * A delivery's route to here: webhooks/receiver.ts (token, shape) → webhooks/event-writer.ts (stored
 * before the 200) → EventInbox.wake → runtime/inbox-worker.ts → StoredEventHandler.handle:
 * runtime/runtimes.ts → runtime/server-runtime.ts → this switch → feeds/review-feed.ts, the mirror
 * (refreshSoon) and, for a vote, the server's VoteSink (runtime/server-votes.ts).
 */
export function inboxRoute(options: InboxRouteOptions): (event: RoutedEvent) => Promise<HandledOutcome> {
  return async ({ kind, payload, receivedAt }) => {
    // The receiver wrote the kind: `topgg vote` for a list's event, `vote` for a Guilds one.
    if (siteOfEventKind(kind) !== undefined)
      return listRoute(payload as ListEvent & { site: AdaptedSiteId }, receivedAt, {
        ...options,
        listingDelivered: options.listingDelivered ?? (() => Promise.resolve()),
      });
    // A Guilds event's stored kind is its `event`: the row says which payload it holds.
    const row = { kind, event: payload } as GuildsRow;
    switch (row.kind) {
      case 'review':
        options.api.forgetMember(row.event.authorId);
        return outcome(await options.feed.onReview(row.event, receivedAt));
      case 'vote':
        return outcome(await acceptVote(row.event, receivedAt, options));
      case 'reply':
        if (row.event.reviewId === undefined) {
          options.logger.info({ authorId: row.event.authorId }, 'reply webhook names no review; nothing to update');
          return 'stored';
        }
        await options.feed.onAnswered(row.event.reviewId, {
          replyId: row.event.replyId ?? null,
          moderatorId: null,
          at: receivedAt,
        });
        return 'stored';
      default:
        return unknownEvent(row);
    }
  };
}

/** A stored Guilds event as its row holds it: the kind written beside the payload names the payload's shape. */
type GuildsRow = {
  [K in GuildsEvent['event']]: { kind: K; event: Extract<GuildsEvent, { event: K }> };
}[GuildsEvent['event']];

/** The receiver stores only the kinds above; a new kind must be routed here before it is accepted. */
function unknownEvent(row: never): never {
  throw new Error(`no route for webhook event ${JSON.stringify((row as { kind?: unknown }).kind)}`);
}

const outcome = (isNew: boolean): HandledOutcome => (isNew ? 'stored' : 'duplicate');

/** Deliveries repeat and carry no id: a vote is new unless the member's period is still running. */
async function acceptVote(event: VoteEvent, receivedAt: number, options: InboxRouteOptions): Promise<boolean> {
  const { store, api, mirror, logger } = options;
  const userId = event.user.id;
  const name = event.user.global_name ?? event.user.username;
  if (name) options.rememberName?.(userId, name);
  api.forgetMember(userId);
  const knownEnd = await mirror.knownEnd(userId);
  const periodEndsAt = knownEnd !== undefined && knownEnd > receivedAt ? knownEnd : receivedAt + ASSUMED_VOTE_PERIOD_MS;
  const fresh = await store.acceptVote({
    userId,
    at: receivedAt,
    double: event.double,
    source: 'webhook',
    periodEndsAt,
    streakGraceMs: options.streakGraceMs,
  });
  if (fresh) {
    logger.info({ userId, double: event.double }, 'vote accepted');
    options.votes.accepted();
    await options.votes.newVote(userId, periodEndsAt);
  } else logger.info({ userId }, 'vote already counted this period; delivery ignored');
  mirror.refreshSoon(userId);
  return fresh;
}
