/** A member's vote as the bot uses it. */
export interface VoteStatus {
  voted: boolean;
  /** Time left on the vote in milliseconds; null when the service gives none. */
  remainingMs: number | null;
}

export interface VoteEntry {
  userId: string;
  remainingMs: number | null;
  /** The spec's unnamed platform flag, sent on the wire under the key `discord`. */
  viaDiscord: boolean;
}

export interface VoteList {
  totalVotes: number;
  monthlyVotes: number;
  /** Ordered soonest to run out first (see vote-order.ts). */
  votes: VoteEntry[];
}

export interface Review {
  id: string;
  rating: number;
  content: string;
  likes: number;
  replies: number;
  createdAt: Date;
  authorId: string;
}

export interface ReplyInput {
  content: string;
  pinned: boolean;
}

export interface Reply {
  id: string;
}

/** Per-call options: the caller's own deadline (an interaction token's life, say). */
export interface CallOptions {
  signal?: AbortSignal;
  /** Upper bound for this call in ms, on top of the client's total budget; the smaller wins. */
  budgetMs?: number;
  /** Ask the service, neither reading nor filling the cache (a poll that keeps a mirror current). */
  fresh?: boolean;
}

export type RouteName = 'getVote' | 'listVotes' | 'getReview' | 'postReply';

/** One HTTP attempt, reported to an optional observer (logs, metrics). Never carries secrets. */
export interface AttemptInfo {
  route: RouteName;
  method: 'GET' | 'POST';
  attempt: number;
  durationMs: number;
  status?: number;
  error?: string;
}

export interface ServiceClientOptions {
  /** Base URL ending in the version segment, e.g. https://api.example.com/v1 (trailing slash optional). */
  baseUrl: string;
  /**
   * The server's API key and app id: as values, or as a function called for every request, so a
   * secret kept sealed elsewhere is opened only where the request is built.
   */
  apiKey?: string;
  appId?: string;
  credentials?: () => { apiKey: string; appId: string };
  /**
   * Header name prefix: `Service` gives Service-Api-Key / Service-App-Id (Guilds uses `Guilds`).
   * Default: `Guilds` when the base URL's host is guilds.me or a subdomain of it, else `Service`.
   */
  headerPrefix?: string;
  /** Per-attempt timeout. */
  attemptTimeoutMs?: number;
  /** Total time budget of one call, retries and waits included. */
  totalBudgetMs?: number;
  /** Retries after the first attempt (GET; and POST when it provably never left). */
  retries?: number;
  minRetryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** How long a successful GET result is reused. 0 disables the cache. */
  cacheTtlMs?: number;
  /** How long a "not voted" result is reused: members check right after voting. */
  notVotedTtlMs?: number;
  /** Consecutive failed calls that open the circuit, and how long it stays open. */
  breakerThreshold?: number;
  breakerCooldownMs?: number;
  /** Bytes of a response body read at most; a larger body is an invalid response. Default 1 MiB. */
  maxResponseBytes?: number;
  onAttempt?: (info: AttemptInfo) => void;
  /** Told each time the rate limiter made a call wait, or failed it at once. */
  onRateLimit?: (event: RateLimitEvent) => void;
}

/** The service's rate-limit headers on an answer, as sent (Guilds sends them on every response). */
interface RateLimitSeen {
  limit: string;
  remaining: string;
}

/** What the start-up check saw; `headers` names the credential headers that were sent. */
export type ConnectionCheck =
  | { outcome: 'ok'; status: number; rateLimit?: RateLimitSeen }
  | { outcome: 'credentials_refused'; status: number; headers: string[] }
  | { outcome: 'not_found'; status: 404 }
  | { outcome: 'unexpected'; status: number }
  | { outcome: 'unreachable'; detail: string };

export interface ServiceClient {
  /** A member's vote. @example await client.getVote('123456789012345678') */
  getVote(userId: string, options?: CallOptions): Promise<VoteStatus>;
  /** The guild's active votes and totals. */
  listVotes(options?: CallOptions): Promise<VoteList>;
  /** A member's review, or null when the member has none. */
  getReview(userId: string, options?: CallOptions): Promise<Review | null>;
  /** Posts a reply as the guild. Never sent twice by the client itself. */
  replyToReview(reviewId: string, input: ReplyInput, options?: CallOptions): Promise<Reply>;
  /** One cheap request to see whether base URL and credentials work; never throws. */
  checkConnection(options?: CallOptions): Promise<ConnectionCheck>;
  /** Drops what is cached about a member (a webhook said their vote or review changed). */
  forgetMember(userId: string): void;
}

/** The one thing read from response headers: a value by (case-insensitive) name. */
export interface ResponseHeaders {
  get(name: string): string | null;
}

/** What a call has left: its signal (aborting with the call's typed error) and the ms remaining. */
export interface CallBudget {
  signal: AbortSignal;
  remaining(): number;
}

/** A wait the limiter imposed, or a call it failed at once: for metrics and logs. */
export interface RateLimitEvent {
  outcome: 'waited' | 'failed_fast';
  /** How long the call waited, or would have had to wait. */
  waitMs: number;
}
