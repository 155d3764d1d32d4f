// What every list the bot hears has in common: how its deliveries are authorized, how long a vote
// runs there, and the two steps each delivery goes through: verify() on the raw bytes, then read().
// docs/lists.md describes each site for admins; the site files say where each fact comes from.

/** The longest vote length a listing may set (`vote-hours`), for the sites whose deliveries do not say: a week. */
export const LISTING_VOTE_HOURS_MAX = 168;

/**
 * Who makes the listing's secret: 'site' (Top.gg's `whs_…`, pasted into the bot) or 'bot' (the bot
 * makes it, shows it once, and the admin pastes it on the site).
 */
type SecretSource = 'site' | 'bot';

/** How a delivery proves where it came from. */
type DeliveryAuth =
  | 'hmac-signature' // a header signs a timestamp and the raw body with the secret
  | 'authorization-equals' // the Authorization header is the secret
  | 'authorization-bearer' // the Authorization header is `Bearer <secret>`
  | 'url-path'; // the secret is the last segment of the address

export type Refusal = 'bad-signature' | 'stale-timestamp' | 'missing-secret' | 'wrong-secret';
export type Verdict = { ok: true } | { ok: false; refusal: Refusal };

/** One HTTP request as the receiver got it, before anything parses its body. */
export interface Delivery {
  /** Lower-case names, as node:http gives them. */
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  rawBody: Buffer;
  /** The address segment after the site id, for sites that put the secret there. */
  pathSecret?: string;
}

export interface ReadContext {
  /** When the delivery arrived (ms): the vote's time when the site does not say. */
  now: number;
  /** The listing's vote length setting (ms), for sites that do not send one; the site's default if unset. */
  voteLengthMs?: number;
}

/** One delivery, the same shape whichever list sent it. */
/** `Site`: the site's id; sites.ts narrows it to the registry's ids for the code outside this folder. */
export interface ListEvent<Site extends string = string> {
  site: Site;
  /** A 'test' delivery is acknowledged and shown, never announced or counted. */
  kind: 'vote' | 'review' | 'test';
  /** The server the site says was voted for; the receiver checks it is the listing's. */
  guildId: string;
  memberId: string;
  memberName?: string;
  /** When the vote was cast (ms). */
  at: number;
  /** When the member can vote on this list again (ms). */
  until: number;
  /** How many votes this one counts as (Top.gg doubles some), inside the site's `weights`. */
  weight: number;
  /** The weight the site sent, when it was outside the site's range and `weight` is the nearest end of it. */
  weightSent?: number;
  /** The site's own id for this event; without one the ledger dedupes by site, member and window. */
  siteEventId?: string;
  /** Read back from the site's API after the bot was down (Top.gg), not delivered: never the webhook's activity. */
  recovered?: true;
  review?: { id: string; content: string; rating?: number; url?: string };
}

export type ReadResult<Site extends string = string> =
  { ok: true; event: ListEvent<Site> } | { ok: false; problem: string };

/** What the registry, /setup listing and the docs know about a site. */
export interface SiteFacts<Id extends string = string> {
  id: Id;
  /** The site's own name, shown as is in every language. */
  name: string;
  secretFrom: SecretSource;
  auth: DeliveryAuth;
  /** 'payload' when every vote carries its own end; else the default of the listing's setting. */
  voteLength: 'payload' | number;
  /** Repeats of one vote closer together than this are one vote (ms). */
  dedupeWindowMs: number;
  /** What one vote can count as, as the site documents it (each site's file names the source). */
  weights: WeightRange;
  /** Only Guilds lets the bot answer a review. */
  replyApi: boolean;
  /** Whether the site can send a test delivery from its dashboard. */
  sendsTests: boolean;
  /** The server's public vote page on the site, where its documentation gives the address's form. */
  votePage?: (guildId: string) => string;
  /** Where a review from the site is read on the site (the server's page), for sites that send reviews. */
  reviewPage?: (guildId: string) => string;
}

/** The least and the most one vote counts as on a site. */
export interface WeightRange {
  min: number;
  max: number;
}

/** A vote of one weight, for the sites that send none: each vote counts once. */
export const SINGLE_WEIGHT: WeightRange = { min: 1, max: 1 };

/** A weight moved into the site's range, and the one sent when that moved it. */
export function clampWeight(sent: number, range: WeightRange): { weight: number; weightSent?: number } {
  const weight = Math.min(range.max, Math.max(range.min, sent));
  return weight === sent ? { weight } : { weight, weightSent: sent };
}

/** A site whose deliveries the bot verifies and reads itself. */
export interface ListSite<Id extends string = string> extends SiteFacts<Id> {
  /** Where the admin finds (or types) the listing's secret on the site, for the setting's message. */
  secretHint: string;
  /** Checks the raw request before any parsing; compares in constant time. `now` in ms. */
  verify(delivery: Delivery, secret: string, now: number): Verdict;
  /** Reads a verified body; a body of the wrong shape is a problem, never a throw. */
  read(rawBody: Buffer, context: ReadContext): ReadResult<Id>;
}

export const HOUR_MS = 3_600_000;
