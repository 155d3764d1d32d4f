import { createHash } from 'node:crypto';
import type { Logger } from '../core/log.js';
import { HOUR_MS, listEventKind, VOTE_API_SITE, type ListEvent } from '../lists/index.js';
import { TopggApiError, type TopggApi, type TopggVote } from '../lists/topgg-api.js';
import type { Listings } from '../servers/listings.js';
import type { TopggRecoveryState, TopggRecoveryStore } from '../store/index.js';
import type { ServerRuntime } from './running-server.js';

/** A webhook silent longer than this has its votes read back, this often while it stays silent. */
export const TOPGG_SILENCE_MS = 10 * 60_000;
/** Where the first read starts when the ledger has no Top.gg vote (a Top.gg vote runs 12 hours). */
const FIRST_SPAN_MS = 12 * HOUR_MS;
/** Votes a few seconds older than the start may be delivered after it (Top.gg retries for 7 s): a margin. */
const START_MARGIN_MS = 60_000;
const RETRY_FIRST_MS = 60_000;
const RETRY_MAX_MS = HOUR_MS;
/** How long a member's /vote waits for Top.gg: well inside the 1.8 s before the answer is deferred. */
const MEMBER_ASK_MS = 1_000;

export interface TopggRecoveryOptions {
  listings: Pick<Listings, 'withTopggToken' | 'topggToken' | 'of'>;
  store: TopggRecoveryStore;
  api: Pick<TopggApi, 'votesSince' | 'voteOf'>;
  /** The server's runtime in this process; undefined: not started here (another shard's, or not set up). */
  runtimeOf: (guildId: string) => Pick<ServerRuntime, 'handle'> | undefined;
  logger: Logger;
  now?: () => number;
  /** How often the pass looks for servers due a read. */
  tickMs?: number;
}

/** A server's reads in this process: the last one that ended well, and the failures since. */
interface Reads {
  readAt: number;
  failures: number;
  retryAt: number;
}

/** Only a hash of a refused token is kept: enough to see that it changed. */
const fingerprint = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * Top.gg votes missed while the bot was down, read back from Top.gg's API into the ledger: every
 * server whose Top.gg listing has an API token, at start and every TOPGG_SILENCE_MS while its webhook
 * stays silent that long. One pass for the process, one server at a time, all through the API's one
 * request limit; a vote goes the way a delivered one goes (list-route.ts), marked as read back.
 */
export class TopggRecovery {
  readonly #reads = new Map<string, Reads>();
  #stops = new Map<string, TopggRecoveryState>();
  #timer: NodeJS.Timeout | undefined;
  #pass: Promise<void> | undefined;
  #stopped = false;
  /** Ends a read under way when the process stops: a wait for the limit's next slot can be a minute. */
  readonly #abort = new AbortController();
  readonly #now: () => number;
  readonly #startedAt: number;

  constructor(private readonly options: TopggRecoveryOptions) {
    this.#now = options.now ?? Date.now;
    this.#startedAt = this.#now();
  }

  async start(): Promise<void> {
    this.#stops = await this.options.store.topggRecoveryStates();
    this.#timer = setInterval(() => void this.pass(), this.options.tickMs ?? 60_000);
    this.#timer.unref();
    void this.pass();
  }

  /** One look over every server with a token; a pass still running is not started again. */
  pass(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    this.#pass ??= this.#each().finally(() => (this.#pass = undefined));
    return this.#pass;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#abort.abort();
    await this.#pass;
  }

  /**
   * A member's running Top.gg vote the ledger lacks, asked while they wait (/vote): only with a usable
   * token and a request free now, never longer than MEMBER_ASK_MS. A vote found goes in the ledger as
   * read back (the answer does not wait for that); a refusal or a 429 stops the reads as a read's would.
   */
  async memberVote(
    guildId: string,
    userId: string,
  ): Promise<{ votedAt: number; endsAt: number; weight: number } | undefined> {
    const runtime = this.options.runtimeOf(guildId);
    const now = this.#now();
    const blockedUntil = this.#stops.get(guildId)?.blockedUntil;
    if (this.#stopped || runtime === undefined || (blockedUntil !== undefined && now < blockedUntil)) return undefined;
    const token = this.options.listings.topggToken(guildId);
    if (token === undefined || this.#parked(guildId, token)) return undefined;
    try {
      const vote = await this.options.api.voteOf(token, userId, { timeoutMs: MEMBER_ASK_MS, now });
      if (vote === undefined) return undefined;
      const event = recoveredEvent(guildId, vote);
      void runtime
        .handle({ kind: listEventKind(event), payload: event, receivedAt: this.#now() })
        .catch((err: unknown) =>
          this.options.logger.error({ err, guildId, userId }, 'a Top.gg vote /vote found was not kept'),
        );
      return { votedAt: vote.at, endsAt: vote.until, weight: vote.weight };
    } catch (error) {
      if (!(error instanceof TopggApiError)) throw error;
      if (error.failure.kind !== 'transient') await this.#failed(guildId, token, this.#readsOf(guildId), error);
      return undefined;
    }
  }

  #readsOf(guildId: string): Reads {
    return this.#reads.get(guildId) ?? { readAt: 0, failures: 0, retryAt: 0 };
  }

  async #each(): Promise<void> {
    for (const guildId of this.options.listings.withTopggToken()) {
      if (this.#stopped) return;
      const runtime = this.options.runtimeOf(guildId);
      if (runtime === undefined || !this.#due(guildId)) continue;
      // Opened for this read only, and only for a server due one.
      const token = this.options.listings.topggToken(guildId);
      if (token === undefined || this.#parked(guildId, token)) continue;
      await this.#read(guildId, token, runtime).catch((err: unknown) => {
        // Stopping ends a read under way: what it took is kept, the next start reads the rest.
        if (!this.#stopped) this.options.logger.error({ err, guildId }, 'reading back Top.gg votes failed');
      });
    }
  }

  /** Top.gg refused this very token: nothing is asked with it again (a new one is read at once). */
  #parked(guildId: string, token: string): boolean {
    const parked = this.#stops.get(guildId)?.parked;
    return parked !== undefined && parked.token === fingerprint(token);
  }

  #due(guildId: string): boolean {
    const now = this.#now();
    const stop = this.#stops.get(guildId);
    if (stop?.blockedUntil !== undefined && now < stop.blockedUntil) return false;
    const reads = this.#reads.get(guildId);
    if (reads === undefined) return true;
    if (now < reads.retryAt) return false;
    if (reads.failures > 0 || reads.readAt === 0) return true;
    const heard = this.options.listings.of(guildId).find((l) => l.site === VOTE_API_SITE)?.lastDeliveryAt ?? null;
    return (heard === null || now - heard > TOPGG_SILENCE_MS) && now - reads.readAt >= TOPGG_SILENCE_MS;
  }

  async #read(guildId: string, token: string, runtime: Pick<ServerRuntime, 'handle'>): Promise<void> {
    const { store, api, logger } = this.options;
    const reads = this.#readsOf(guildId);
    // Until a read has ended well in this process, a vote delivered since the start says nothing of
    // the votes missed before it: the read starts from the last vote seen before the start.
    const before = reads.readAt === 0 ? this.#startedAt - START_MARGIN_MS : Number.MAX_SAFE_INTEGER;
    const now = this.#now();
    const since = (await store.latestListVote(guildId, VOTE_API_SITE, before)) ?? now - FIRST_SPAN_MS;
    let read = 0;
    let taken = 0;
    const take = async (votes: TopggVote[]) => {
      for (const vote of votes) {
        read += 1;
        const event = recoveredEvent(guildId, vote);
        if (
          (await runtime.handle({ kind: listEventKind(event), payload: event, receivedAt: this.#now() })) === 'stored'
        )
          taken += 1;
      }
    };
    try {
      await api.votesSince(token, since, take, now, this.#abort.signal);
    } catch (error) {
      if (!(error instanceof TopggApiError)) throw error;
      await this.#failed(guildId, token, reads, error);
      return;
    }
    this.#reads.set(guildId, { readAt: this.#now(), failures: 0, retryAt: 0 });
    if (this.#stops.delete(guildId)) await store.saveTopggRecovery(guildId, undefined);
    logger.info({ guildId, read, taken, since }, 'Top.gg votes read back');
  }

  async #failed(guildId: string, token: string, reads: Reads, error: TopggApiError): Promise<void> {
    const { store, logger } = this.options;
    const now = this.#now();
    const { failure } = error;
    if (failure.kind === 'transient') {
      const failures = reads.failures + 1;
      const wait = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (failures - 1));
      this.#reads.set(guildId, { ...reads, failures, retryAt: now + wait });
      // Said when the failures start; the retries go on quietly until a read ends well.
      if (failures === 1)
        logger.warn({ guildId, reason: failure.reason, retryInMs: wait }, 'Top.gg API not answering; trying again');
      return;
    }
    const state: TopggRecoveryState = { ...this.#stops.get(guildId) };
    if (failure.kind === 'limited') {
      state.blockedUntil = now + failure.retryAfterMs;
      logger.warn(
        { guildId, retryAfterMs: failure.retryAfterMs },
        'Top.gg answered 429: no request with this token until its block ends',
      );
    } else {
      state.parked = { token: fingerprint(token), status: failure.status, at: now };
      logger.warn(
        { guildId, status: failure.status },
        'Top.gg refused the API token: votes are not read back until it changes (/setup listing add site:topgg api-token:)',
      );
    }
    this.#stops.set(guildId, state);
    this.#reads.set(guildId, { ...reads, failures: 0, retryAt: 0 });
    await store.saveTopggRecovery(guildId, state);
  }
}

/** A vote read back, as the webhook's vote.create would have brought it (without Top.gg's id, which the list omits). */
function recoveredEvent(guildId: string, vote: TopggVote): ListEvent {
  const { memberId, at, until, weight, weightSent } = vote;
  const event: ListEvent = { site: VOTE_API_SITE, kind: 'vote', guildId, memberId, at, until, weight, recovered: true };
  if (weightSent !== undefined) event.weightSent = weightSent;
  return event;
}
