// The lists a server can be on besides Guilds: one file per site, one registry.
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
  siteOfEventKind,
} from './sites.js';
export { DISCADIA_DEDUPE_WINDOW_MS } from './discadia.js';
export { VOTE_API_SITE } from './topgg-api.js';
export { LIST_REVIEW_ID_PREFIXES, LIST_REVIEW_PENDING_DAYS, listReviewId, listReviewOrigin } from './review-id.js';
