// A list's review in the review feed (and /reviews pending) is kept under `<site id>:<the site's id>`:
// the feed's rows stay as they are, a Guilds review id never starts with a list's id and a colon,
// and the id alone says which list a review came from, to label it and link to it.
import { isAdaptedSiteId, LIST_SITES, SITE_FACTS, type AdaptedSiteId } from './sites.js';

export const listReviewId = (site: AdaptedSiteId, siteReviewId: string): string => `${site}:${siteReviewId}`;

/** How every list's review id starts, for the store to tell them from Guilds' reviews. */
export const LIST_REVIEW_ID_PREFIXES: readonly string[] = Object.keys(LIST_SITES).map((site) => `${site}:`);

/**
 * A list's review can be answered on the site only, and the bot never learns that it was: it leaves
 * /reviews pending this long after it came (its feed post stays) rather than wait there for ever.
 */
export const LIST_REVIEW_PENDING_DAYS = 7;

/** Which list a review came from, as the feed shows it: the site's name and where to read the review. */
export interface ListReviewOrigin {
  name: string;
  url?: string;
}

/** The list a feed review came from; undefined for a Guilds review. */
export function listReviewOrigin(reviewId: string, guildId: string): ListReviewOrigin | undefined {
  const colon = reviewId.indexOf(':');
  const site = colon > 0 ? reviewId.slice(0, colon) : undefined;
  if (!isAdaptedSiteId(site)) return undefined;
  const { name, reviewPage } = SITE_FACTS[site];
  return reviewPage ? { name, url: reviewPage(guildId) } : { name };
}
