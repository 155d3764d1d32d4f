// The lists a server can be on besides Guilds: one file per site, one registry.
import type { ListEvent as AnyListEvent } from './site.js';
import type { SiteId } from './sites.js';

export * from './site.js';
export {
  isAdaptedSiteId,
  isSiteId,
  LIST_SITES,
  listEventKind,
  listingAddress,
  LIST_SITE_IDS,
  listingSecretVariable,
  listingVoteHoursVariable,
  listName,
  SITE_FACTS,
  SITE_IDS,
  siteOfEventKind,
  type AdaptedSiteId,
  type SiteId,
} from './sites.js';
export { DISCADIA_DEDUPE_WINDOW_MS } from './discadia.js';
export { VOTE_API_SITE } from './topgg-api.js';
export { LIST_REVIEW_ID_PREFIXES, LIST_REVIEW_PENDING_DAYS, listReviewId, listReviewOrigin } from './review-id.js';

/** Outside this folder an event's site is one of the registry's. */
export type ListEvent = AnyListEvent<SiteId>;
