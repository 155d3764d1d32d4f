import type { RateLimitOptions } from './rate-limit.js';
import type { RouteName } from '../api/types.js';

/** Wire shapes, exactly as the spec names them. */
export interface WireVoteEntry {
  userId: string;
  remaining: number;
  discord: boolean;
}

export interface WireReview {
  id: string;
  rating: number;
  content: string;
  likes: number;
  replies: number;
  created_at: string;
  authorId: string;
}

export interface SeedData {
  /**
   * When the data was written (ISO). If present, every time in the seed is shifted by
   * (now - generatedAt) on load, so a static file still yields fresh votes.
   */
  generatedAt?: string;
  totalVotes: number;
  monthlyVotes: number;
  /** Active votes; `expiresAt` is an ISO time, turned into `remaining` ms when served. */
  votes: Array<{ userId: string; expiresAt: string; discord: boolean }>;
  reviews: WireReview[];
}

/**
 * A fault applied to matching requests. Several fields may combine (latency, then status).
 * `times`: how many requests it hits before it clears itself; absent = until cleared.
 */
export interface Fault {
  latencyMs?: number;
  status?: number;
  /** Sent as the Retry-After header with `status`. */
  retryAfter?: string;
  /** Raw response body with `status` (default: a JSON error body fitting the status). */
  body?: string;
  /** Destroy the socket without answering. */
  reset?: boolean;
  /** Answer 200 with a body that is not valid JSON. */
  malformed?: boolean;
  /** Send the normal body one byte every `trickleMs`. */
  trickleMs?: number;
  /** Answer 200 with a JSON body that never ends (`{"votes":[` and entries, forever) until the client hangs up. */
  endless?: boolean;
  times?: number;
}

export interface RecordedRequest {
  route: RouteName | 'unknown';
  method: string;
  /** Path as received, including the /v1 prefix. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The app id of the credential pair the request carried, when it matched one the sandbox accepts. */
  appId: string | undefined;
  /** Milliseconds since the sandbox started (performance.now based). */
  at: number;
}

export interface SandboxOptions {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  apiKey?: string;
  appId?: string;
  /**
   * Further key and app id pairs accepted beside apiKey/appId: several servers' credentials, as
   * the real service has one pair per server. Each request records which pair it used (`appId`).
   */
  moreCredentials?: ReadonlyArray<{ apiKey: string; appId: string }>;
  /** `Service` by default: headers Service-Api-Key and Service-App-Id. */
  headerPrefix?: string;
  /** Defaults to the bundled seed file. */
  seed?: SeedData;
  /** Keep at most this many requests in the log (bench runs send many). */
  maxLog?: number;
  /** Rate-limit mode: N requests per window, x-ratelimit-* headers, 429 when closed. Off by default. */
  rateLimit?: RateLimitOptions;
}

export interface Sandbox {
  /** e.g. http://127.0.0.1:40123/v1 */
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly appId: string;
  readonly requests: readonly RecordedRequest[];
  requestCount(route?: RouteName): number;
  /** Applies to one route, or to every route with '*'. Replaces that route's previous fault. */
  setFault(route: RouteName | '*', fault: Fault): void;
  clearFaults(): void;
  /** Turns rate-limit mode on (fresh window, violations from 0) or off (null). */
  setRateLimit(options: RateLimitOptions | null): void;
  /** Requests received while the rate-limit window was closed, since rate-limit mode was last set. */
  readonly violations: number;
  /** Data back to the seed, log and faults cleared, rate-limit mode as at start with a fresh window. */
  reset(): void;
  setVote(userId: string, remainingMs: number | null): void;
  /** A vote that runs for `runsForMs` from the first answer that shows it, not from now. */
  setVoteFromFirstRead(userId: string, runsForMs: number): void;
  setReview(review: WireReview): void;
  deleteReview(authorId: string): void;
  getReviewById(reviewId: string): WireReview | undefined;
  /** Replies posted to a review, oldest first. */
  repliesTo(reviewId: string): Array<{ id: string; content: string; pinned: boolean }>;
  close(): Promise<void>;
}
