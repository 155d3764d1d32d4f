import { LIST_SITES, type AdaptedSiteId, type Delivery, type ListEvent } from '../lists/index.js';
import type { DeliveryOutcome } from '../store/index.js';
import type { RefusalReason } from './refusals.js';

/** A list's address: the server, the site, and for a site that puts its secret there (Discadia), that segment. */
export interface ListingTarget {
  guildId: string;
  site: AdaptedSiteId;
  pathSecret?: string;
}

/** What the receiver does with a list's delivery once its body is read. */
export type ListVerdict =
  | { ok: true; event: ListEvent }
  | {
      ok: false;
      status: 400 | 401;
      refusal: RefusalReason;
      outcome: DeliveryOutcome;
      message: string;
      problem?: string;
    };

const REFUSALS = {
  'bad-signature': 'bad_signature',
  'stale-timestamp': 'stale_timestamp',
  'missing-secret': 'missing_secret',
  'wrong-secret': 'wrong_secret',
} as const satisfies Record<string, RefusalReason>;

/**
 * The checks of a list's delivery, in this order: the site's verify() on the raw bytes (nothing of
 * an unverified body is parsed), its read(), then that the body names the listing's server. `now` in ms.
 */
export function checkListDelivery(
  target: ListingTarget,
  headers: Delivery['headers'],
  rawBody: Buffer,
  check: { secret: string; voteLengthMs?: number },
  now: number,
): ListVerdict {
  const site = LIST_SITES[target.site];
  const delivery: Delivery = { headers, rawBody };
  if (target.pathSecret !== undefined) delivery.pathSecret = target.pathSecret;
  const verdict = site.verify(delivery, check.secret, now);
  if (!verdict.ok)
    return {
      ok: false,
      status: 401,
      refusal: REFUSALS[verdict.refusal],
      outcome: verdict.refusal === 'stale-timestamp' ? 'stale_signature' : 'wrong_secret',
      message: 'unauthorized',
    };
  const context = check.voteLengthMs === undefined ? { now } : { now, voteLengthMs: check.voteLengthMs };
  const read = site.read(rawBody, context);
  if (!read.ok)
    return {
      ok: false,
      status: 400,
      refusal: 'malformed',
      outcome: 'malformed',
      message: 'the body is not what this list sends',
      problem: read.problem,
    };
  // Another server's vote at this server's address: a 4xx (nothing stored), so the site does not resend it.
  if (read.event.guildId !== target.guildId)
    return {
      ok: false,
      status: 400,
      refusal: 'other_guild',
      outcome: 'wrong_server',
      message: 'the delivery names another server than its address',
    };
  return { ok: true, event: read.event };
}
