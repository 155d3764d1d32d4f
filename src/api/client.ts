import type { AttemptPlan, CallContext } from './attempts.js';
import { runAttempts } from './attempts.js';
import { breakerOutcome, CircuitBreaker } from './breaker.js';
import { TtlCache } from './cache.js';
import { Coalescer } from './coalesce.js';
import { Deadline } from './deadline.js';
import type { ResolvedOptions } from './options.js';
import { checkCallOptions, MAX_CACHE_ENTRIES, resolveOptions } from './options.js';
import { RateLimiter } from './rate-limiter.js';
import type { Send } from './request.js';
import { createRequester, credentialHeaderNames, limitedSend } from './request.js';
import { readGet, readReply, readReview } from './responses.js';
import { getTransportOutcome, postTransportOutcome } from './retry-policy.js';
import { readVoteList, readVoteStatus } from './schemas.js';
import type {
  CallOptions,
  ConnectionCheck,
  Reply,
  ReplyInput,
  Review,
  RouteName,
  ServiceClient,
  ServiceClientOptions,
  VoteList,
  VoteStatus,
} from './types.js';
import { checkReplyInput, checkReviewId, checkUserId } from './validate-input.js';
import { orderByTimeLeft } from './vote-order.js';

/**
 * Creates the client for the votes and reviews service. Options are checked here, so a bad
 * configuration fails at start-up with an InvalidInputError naming the option.
 * @example
 * const client = createServiceClient({ baseUrl: 'https://api.example.com/v1', apiKey, appId });
 * const vote = await client.getVote('284102390141648897');
 */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  return new HttpServiceClient(options);
}

/** What a GET route is: the same for every call, so made once here rather than per call. */
interface GetRoute<T> {
  route: Exclude<RouteName, 'postReply'>;
  describe: string;
  read: AttemptPlan<T>['read'];
  /** A positive result lives cacheTtlMs; a negative one ("not voted", "no review") only notVotedTtlMs. */
  positive: (value: T) => boolean;
  /** A cached result as it stands `ageMs` later (times left shrink); unchanged by default. */
  aged?: (value: T, ageMs: number) => T;
}

/** One GET: its route, and its cache and coalescing key and path (route and id). */
interface GetSpec<T> {
  of: GetRoute<T>;
  key: string;
  path: string;
}

const shrink = (remainingMs: number | null, ageMs: number) =>
  remainingMs === null ? null : Math.max(0, Math.round(remainingMs - ageMs));

const readVote = readGet(readVoteStatus, 'GET /votes/{user_id}');
const readList = readGet(readVoteList, 'GET /votes');

const GET_VOTE: GetRoute<VoteStatus> = {
  route: 'getVote',
  describe: 'GET /votes/{user_id}',
  read: readVote,
  // "Not voted" is cached only briefly, since members check right after voting.
  positive: (vote) => vote.voted,
  aged: (vote, ageMs) => ({ ...vote, remainingMs: shrink(vote.remainingMs, ageMs) }),
};

const LIST_VOTES: GetRoute<VoteList> = {
  route: 'listVotes',
  describe: 'GET /votes',
  // Gap: the order is not shown. Ordered once here, so each page shown later costs no sort.
  read: (response) => {
    const list = readList(response);
    return { ...list, votes: orderByTimeLeft(list.votes) };
  },
  positive: () => true,
  aged: (list, ageMs) => ({
    ...list,
    votes: list.votes.map((entry) => ({ ...entry, remainingMs: shrink(entry.remainingMs, ageMs) })),
  }),
};

const GET_REVIEW: GetRoute<Review | null> = {
  route: 'getReview',
  describe: 'GET /reviews/{user_id}',
  read: readReview,
  positive: (review) => review !== null,
};

class HttpServiceClient implements ServiceClient {
  // Private fields: the credentials live only in the requester's closure, and nothing here
  // shows up when the client is logged or serialised.
  readonly #settings: ResolvedOptions;
  readonly #send: Send;
  readonly #cache = new TtlCache<unknown>(MAX_CACHE_ENTRIES);
  readonly #flights = new Coalescer();
  readonly #breaker: CircuitBreaker;

  constructor(options: ServiceClientOptions) {
    const { settings, credentials } = resolveOptions(options);
    this.#settings = settings;
    // One limiter for every request this client sends, whatever sends it.
    const limiter = new RateLimiter(settings.onRateLimit);
    this.#send = limitedSend(createRequester({ ...settings, credentials }), limiter);
    this.#breaker = new CircuitBreaker(settings.breakerThreshold, settings.breakerCooldownMs);
  }

  /** A member's vote. */
  getVote(userId: string, options?: CallOptions): Promise<VoteStatus> {
    return this.#get(() => {
      const id = checkUserId(userId);
      return { of: GET_VOTE, key: `getVote:${id}`, path: `/votes/${id}` };
    }, options);
  }

  /** The guild's active votes and totals. */
  listVotes(options?: CallOptions): Promise<VoteList> {
    return this.#get(() => ({ of: LIST_VOTES, key: 'listVotes', path: '/votes' }), options);
  }

  /** A member's review, or null when the member has none (a normal answer, not an error). */
  getReview(userId: string, options?: CallOptions): Promise<Review | null> {
    return this.#get(() => {
      const id = checkUserId(userId);
      return { of: GET_REVIEW, key: `getReview:${id}`, path: `/reviews/${id}` };
    }, options);
  }

  /**
   * Posts a reply as the guild. Sent again only when it provably never reached the service;
   * otherwise a lost answer ends in ReplyOutcomeUnknownError, never in a second reply.
   */
  async replyToReview(reviewId: string, input: ReplyInput, options?: CallOptions): Promise<Reply> {
    const id = checkReviewId(reviewId);
    const reply = checkReplyInput(input);
    const call = this.#callDeadline(checkCallOptions(options));
    try {
      if (call.signal.aborted) throw call.signal.reason as Error;
      this.#breaker.acquire();
      const plan: AttemptPlan<Reply> = {
        request: { route: 'postReply', method: 'POST', path: `/reviews/${encodeURIComponent(id)}`, body: reply },
        describe: 'POST /reviews/{review_id}',
        read: readReply(id),
        onTransportFailure: (failure) => postTransportOutcome(failure, id),
      };
      const result = await this.#recorded(runAttempts(this.#send, plan, call, this.#settings));
      // The review's reply count has changed: the next read must come from the service.
      this.#cache.deleteWhere((value, key) => key.startsWith('getReview:') && (value as Review | null)?.id === id);
      return result;
    } finally {
      call.dispose();
    }
  }

  /**
   * One cheap request (GET /votes, one attempt, no cache, no circuit) to tell at start-up whether
   * the base URL and credentials work. Never throws: the outcome is for the log.
   */
  async checkConnection(options?: CallOptions): Promise<ConnectionCheck> {
    const call = this.#callDeadline(checkCallOptions(options));
    const headers = credentialHeaderNames(this.#settings.headerPrefix);
    try {
      const response = await this.#send({ route: 'listVotes', method: 'GET', path: '/votes' }, 1, call);
      if (response.status === 401 || response.status === 403) {
        return { outcome: 'credentials_refused', status: response.status, headers: [headers.apiKey, headers.appId] };
      }
      if (response.status === 404) return { outcome: 'not_found', status: 404 };
      if (response.status >= 200 && response.status <= 299) {
        const limit = response.headers.get('x-ratelimit-limit');
        const remaining = response.headers.get('x-ratelimit-remaining') ?? '?';
        return {
          outcome: 'ok',
          status: response.status,
          ...(limit === null ? {} : { rateLimit: { limit, remaining } }),
        };
      }
      return { outcome: 'unexpected', status: response.status };
    } catch (error) {
      return { outcome: 'unreachable', detail: (error as Error).message };
    } finally {
      call.dispose();
    }
  }

  forgetMember(userId: string): void {
    this.#cache.deleteWhere((_, key) => key === `getVote:${userId}` || key === `getReview:${userId}`);
  }

  /**
   * The one GET path: cache, then an in-flight request to share, then the circuit, then HTTP.
   * Not async: a waiting GET keeps no suspended frames of its own, only the coalescer's wait.
   */
  #get<T>(specOf: () => GetSpec<T>, options: CallOptions | undefined): Promise<T> {
    let caller: Deadline | undefined;
    try {
      const spec = specOf();
      const { aged } = spec.of;
      const callOptions = checkCallOptions(options);
      const cached = callOptions.fresh ? undefined : this.#cache.get(spec.key);
      if (cached !== undefined)
        return Promise.resolve(aged ? aged(cached.value as T, cached.ageMs) : (cached.value as T));
      caller = this.#callDeadline(callOptions);
      if (caller.signal.aborted) throw caller.signal.reason as Error;
      if (!this.#flights.has(spec.key)) this.#breaker.acquire();
      // From here the wait releases the caller's deadline when it ends.
      return this.#flights.run(spec.key, caller, this.#settings.totalBudgetMs, (call) =>
        this.#fetch(spec, call, callOptions.fresh === true),
      );
    } catch (error) {
      // Whatever fails before a wait begins is the call's rejection, as an async function's throw would be.
      caller?.dispose();
      return Promise.reject(error as Error);
    }
  }

  /** A fresh call (a poll: the mirror keeps what it read) leaves the cache alone, not a second copy per server. */
  #fetch<T>(spec: GetSpec<T>, call: CallContext, fresh: boolean): Promise<T> {
    const epoch = this.#cache.epoch;
    const { of } = spec;
    const plan: AttemptPlan<T> = {
      request: { route: of.route, method: 'GET', path: spec.path },
      describe: of.describe,
      read: of.read,
      onTransportFailure: (failure) => getTransportOutcome(failure, call.signal),
    };
    return this.#recorded(runAttempts(this.#send, plan, call, this.#settings), (value) => {
      // Errors are never cached; nor is a result fetched before a reply invalidated the cache.
      if (this.#cache.epoch === epoch && !fresh) this.#cache.set(spec.key, value, this.#ttl(of.positive(value)));
    });
  }

  /** Tells the circuit breaker how a call ended; `onValue` sees a result first. */
  #recorded<T>(call: Promise<T>, onValue?: (value: T) => void): Promise<T> {
    return call.then(
      (value) => {
        this.#breaker.record('success');
        onValue?.(value);
        return value;
      },
      (error: unknown) => {
        this.#breaker.record(breakerOutcome(error));
        throw error;
      },
    );
  }

  /** The caller's deadline: the client's budget, shortened by the call's own budget and signal. */
  #callDeadline(options: CallOptions): Deadline {
    const budgetMs = Math.min(this.#settings.totalBudgetMs, options.budgetMs ?? Infinity);
    return new Deadline(budgetMs, options.signal);
  }

  /** A positive result lives cacheTtlMs; "not voted" and "no review" only notVotedTtlMs (never longer). */
  #ttl(positive: boolean): number {
    const { cacheTtlMs, notVotedTtlMs } = this.#settings;
    return positive ? cacheTtlMs : Math.min(cacheTtlMs, notVotedTtlMs);
  }
}
