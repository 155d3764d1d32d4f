import { ServiceError, type ServiceClient, type VoteStatus } from '../api/index.js';
import type { Logger } from '../core/log.js';
import {
  GUILDS_SITE,
  type MirrorEntry,
  type MirrorStore,
  type NewVote,
  type PollRecord,
  type VoteLedger,
} from '../store/index.js';
import { INTERACTION_STORE_MS, storeWithin } from '../store/within.js';
import { backoffMs, type BackoffPolicy } from '../work/backoff.js';
import { DrainLoop } from '../work/drain-loop.js';
import type { VoteSink } from './vote-sink.js';

/**
 * How long a vote period is taken to last until the service says otherwise (Guilds' votes run
 * 12 hours); a refresh or poll replaces it with the real expiry.
 */
export const ASSUMED_VOTE_PERIOD_MS = 12 * 3_600_000;
/** An end within this of a known one is the same end (the service's remaining time moves by rounding and latency). */
export const SAME_VOTE_END_MS = 1_000;
/** A failed poll or refresh is tried again after 1 s, doubling to 30 s (a poll never later than its interval). */
const MIRROR_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 30_000 };
/** More members than this waiting for a refresh: one GET /votes serves them all. */
const REFRESH_BY_POLL_ABOVE = 5;

export interface VoteMirrorOptions {
  /** The mirror, and the votes a poll records. */
  store: MirrorStore & Pick<VoteLedger, 'acceptVotes' | 'runningVotes' | 'setPeriodEnd' | 'unconfirmedVoters'>;
  api: ServiceClient;
  logger: Logger;
  /** VOTE_POLL_SECONDS in ms; 0 turns polling off (webhook refreshes still run). */
  pollMs: number;
  now: () => number;
  /**
   * Where the votes the mirror finds go: those a poll found that no webhook reported (accepted), a
   * running vote a refresh saw (running) or a `/vote` answer showed (seen), a poll's whole list (polled).
   */
  votes: Pick<VoteSink, 'accepted' | 'running' | 'seen' | 'polled'>;
  /** The server's streak grace window (votes the poll finds continue streaks like delivered ones). */
  streakGraceMs?: number;
}

/** The guild's active votes, kept in the store from polls of GET /votes and per-member refreshes. */
export class VoteMirror {
  /** GET /votes: at start, every pollMs after (its `every`), and sooner after a failure. */
  readonly #polls: DrainLoop;
  /** Members a webhook named, a batch at a time; without polls also those whose refresh failed, when due. */
  readonly #refreshes: DrainLoop;
  /** Without polls: the votes a stop left unrefreshed, read once at start (a failed read is retried with backoff). */
  readonly #unconfirmed: DrainLoop;
  #polling: Promise<void> | undefined;
  readonly #waiting = new Set<string>();
  #stopped = false;
  /** A regular poll (the first, or a tick of the loop's `every`) is due. */
  #pollDue = false;
  /** A failed poll is tried again then, well before the next regular one; Infinity: none waiting. */
  #retryAt = Infinity;
  #pollFailures = 0;
  /** Without polls, members whose refresh failed, with how often it failed. */
  readonly #refreshFailures = new Map<string, number>();
  /** Without polls, the refreshes that failed, each tried again at its own time. */
  #refreshRetries: Array<{ readonly userId: string; readonly at: number }> = [];
  /**
   * The store's mirror rows (member → expiry), so `/vote` reads them with no I/O: a store query per
   * `/vote` was most of the bot's CPU under load. Filled by a poll or read once from the store, then
   * kept in step with every write below (this object is the mirror's only writer).
   */
  #index: Map<string, number> | undefined;
  #loading: Promise<Map<string, number>> | undefined;
  /** Mirror writes so far: a load that overlapped one is used once, and read again next time. */
  #writes = 0;

  constructor(private readonly options: VoteMirrorOptions) {
    // A poll and a refresh catch their own failures (they back off by MIRROR_BACKOFF, a poll never
    // later than its interval): only the read of unconfirmed votes leaves its retry to the loop.
    this.#polls = new DrainLoop(() => this.#pollWhenDue());
    this.#refreshes = new DrainLoop(() => this.#refreshWaiting());
    this.#unconfirmed = new DrainLoop(() => this.#refreshUnconfirmed(), {
      backoff: MIRROR_BACKOFF,
      warn: { logger: options.logger, line: 'could not read the votes left unconfirmed; trying again' },
    });
  }

  /** Polls now and then every pollMs; without polls, refreshes the votes a stop left unrefreshed. */
  start(): void {
    if (this.options.pollMs <= 0) return this.#unconfirmed.wake();
    this.#pollDue = true;
    this.#polls.wake();
    // A regular poll that falls while one runs (this loop's, or one a burst of refreshes asked for) shares it.
    this.#polls.every(this.options.pollMs, () => {
      if (this.#polling) return;
      this.#pollDue = true;
      this.#polls.wake();
    });
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all([this.#polls.stop(), this.#refreshes.stop(), this.#unconfirmed.stop(), this.#polling]);
  }

  /** The member's vote as the mirror shows it, if active now; undefined means "ask the service". */
  async activeVote(userId: string): Promise<VoteStatus | undefined> {
    try {
      // A member is waiting: past the deadline the service answers instead.
      const index = this.#index ?? (await storeWithin(this.#load(), INTERACTION_STORE_MS));
      const expiresAt = index.get(userId);
      if (expiresAt === undefined) return undefined;
      const left = expiresAt - this.options.now();
      if (left > 0) return { voted: true, remainingMs: left };
      // Ran out: the row stays until the next poll or refresh (in memory too, as knownEnd reads it).
      return undefined;
    } catch (err) {
      // The store being unreachable costs a service call, not the answer.
      this.options.logger.warn({ err, userId }, 'could not read the vote mirror');
      return undefined;
    }
  }

  /**
   * When the member's mirrored vote ends, as the store's mirror row says (ended or not), read from
   * memory once the mirror is loaded: a delivered vote costs no read of its own. A store that fails
   * throws, so the event waits and is handled again.
   */
  async knownEnd(userId: string): Promise<number | undefined> {
    return (this.#index ?? (await this.#load())).get(userId);
  }

  #load(): Promise<Map<string, number>> {
    this.#loading ??= (async () => {
      const writes = this.#writes;
      const entries = await this.options.store.mirrorEntries();
      const index = new Map(entries.map((entry) => [entry.userId, entry.expiresAt]));
      if (writes === this.#writes) this.#index = index;
      return index;
    })().finally(() => (this.#loading = undefined));
    return this.#loading;
  }

  /**
   * The service answered a `/vote` the mirror could not: a running vote it shows is made known (the
   * voter role). The mirror itself is left to polls and refreshes, so `/vote` keeps asking the
   * service about members the mirror does not show.
   */
  async learned(userId: string, status: VoteStatus): Promise<void> {
    const { logger, now } = this.options;
    if (this.#stopped || !status.voted || status.remainingMs === null || status.remainingMs <= 0) return;
    try {
      await this.options.votes.seen(userId, now() + status.remainingMs);
    } catch (err) {
      logger.warn({ err, userId }, 'could not act on a vote a /vote answer showed');
    }
  }

  /** One poll at a time; a poll asked for while one runs shares it. */
  poll(): Promise<void> {
    this.#polling ??= this.#poll().finally(() => (this.#polling = undefined));
    return this.#polling;
  }

  /** A webhook said the member voted: their entry is fetched again soon. */
  refreshSoon(userId: string): void {
    if (this.#stopped) return;
    this.#waiting.add(userId);
    this.#refreshes.wake();
  }

  /** The polls loop's pass: a poll if a regular one or a retry is due, then a wake-up at the retry. */
  async #pollWhenDue(): Promise<void> {
    if (this.#pollDue || Date.now() >= this.#retryAt) {
      this.#pollDue = false;
      await this.poll();
    }
    this.#polls.wakeAt(this.#retryAt);
  }

  /**
   * A refresh lives in memory: a process killed between a vote's delivery and its refresh left the
   * assumed 12-hour period in the store (voter role and reminder 12 hours late). A poll corrects
   * every period; without polls, those members are refreshed here at start.
   */
  async #refreshUnconfirmed(): Promise<void> {
    const { store, logger, now } = this.options;
    const members = await store.unconfirmedVoters(now(), ASSUMED_VOTE_PERIOD_MS);
    if (members.length > 0) logger.info({ members: members.length }, 'refreshing votes a stop left unconfirmed');
    for (const userId of members) this.refreshSoon(userId);
  }

  async #poll(): Promise<void> {
    const { store, api, logger, now } = this.options;
    try {
      const list = await api.listVotes({ fresh: true });
      const at = now();
      // The very first poll only learns who has voted: those votes were cast before the bot was
      // listening, and announcing a day's worth of them at once would be noise (source 'seed').
      const first = (await store.mirrorTotals()) === undefined;
      const entries: MirrorEntry[] = [];
      for (const vote of list.votes) {
        if (vote.remainingMs !== null && vote.remainingMs > 0)
          entries.push({ userId: vote.userId, expiresAt: at + vote.remainingMs, viaDiscord: vote.viaDiscord });
      }
      await store.replaceMirror(entries, {
        totalVotes: list.totalVotes,
        monthlyVotes: list.monthlyVotes,
        polledAt: at,
      });
      this.#writes += 1;
      this.#index = new Map(entries.map((entry) => [entry.userId, entry.expiresAt]));
      logger.info({ active: entries.length, first }, 'vote mirror updated');
      const listed = entries.map((entry) => ({ userId: entry.userId, endsAt: entry.expiresAt }));
      await this.options.votes.polled(listed);
      // One read for the whole list: most listed votes are running already and need no more work.
      // Guilds' own: another list's running vote neither hides a Guilds vote nor moves its end.
      const running = await store.runningVotes(at, GUILDS_SITE);
      const candidates: NewVote[] = [];
      for (const vote of list.votes) {
        const periodEndsAt = vote.remainingMs ? at + vote.remainingMs : at + ASSUMED_VOTE_PERIOD_MS;
        const endsAt = running.get(vote.userId);
        if (endsAt === undefined) {
          const source = first ? 'seed' : 'poll';
          candidates.push({
            userId: vote.userId,
            at,
            double: false,
            source,
            periodEndsAt,
            streakGraceMs: this.options.streakGraceMs,
          });
        } else if (Math.abs(endsAt - periodEndsAt) >= SAME_VOTE_END_MS)
          await store.setPeriodEnd(vote.userId, at, periodEndsAt);
      }
      const fresh = await store.acceptVotes(candidates);
      const accepted = first ? 0 : fresh.length;
      if (accepted > 0) {
        logger.info({ voters: accepted }, 'poll found votes no webhook reported');
        this.options.votes.accepted();
      }
      if (this.#pollFailures > 0) logger.info({ failedPolls: this.#pollFailures }, 'vote poll works again');
      this.#pollFailures = 0;
      this.#retryAt = Infinity;
      await this.#remember({ at, ok: true });
    } catch (err) {
      this.#pollFailures += 1;
      const retryInMs = this.#retryPoll();
      // One line per outage, not one per retry; the service's own failure is known and told in a
      // line, a stack trace is kept for what is not (a store fault, a bug).
      const fields = err instanceof ServiceError ? { problem: err.message, code: err.code } : { err };
      logger[this.#pollFailures === 1 ? 'warn' : 'debug'](
        { ...fields, attempt: this.#pollFailures, retryInMs },
        'could not poll the active votes; the mirror keeps its last state',
      );
      // Only the error's stable code reaches /setup status: its message may quote the service.
      await this.#remember({ at: now(), ok: false, code: err instanceof ServiceError ? err.code : 'store' });
    }
  }

  /** The last poll and how it went, for /setup status; a store that fails here only costs that line. */
  async #remember(poll: PollRecord): Promise<void> {
    try {
      await this.options.store.recordPoll(poll);
    } catch (err) {
      this.options.logger.debug({ err }, 'could not record how the poll went');
    }
  }

  /** Polls again after a backoff (never later than the regular poll); returns the wait. */
  #retryPoll(): number {
    const wait = Math.min(backoffMs(this.#pollFailures, MIRROR_BACKOFF), this.options.pollMs || Infinity);
    this.#retryAt = Date.now() + wait;
    this.#polls.wakeAt(this.#retryAt);
    return wait;
  }

  /** A refresh that failed: a poll covers every member, else this member is refreshed again later. */
  #refreshFailed(userId: string): void {
    if (this.#stopped) return;
    if (this.options.pollMs > 0) {
      this.#pollFailures = Math.max(this.#pollFailures, 1);
      this.#retryPoll();
      return;
    }
    const attempt = (this.#refreshFailures.get(userId) ?? 0) + 1;
    this.#refreshFailures.set(userId, attempt);
    const at = Date.now() + backoffMs(attempt, MIRROR_BACKOFF);
    this.#refreshRetries.push({ userId, at });
    this.#refreshes.wakeAt(at);
  }

  /** The refreshes loop's pass: the members waiting (and retries due), then a wake-up at the next retry. */
  async #refreshWaiting(): Promise<void> {
    // Members named in the same turn of the event loop are refreshed together.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const at = Date.now();
    for (const retry of this.#refreshRetries) if (retry.at <= at) this.#waiting.add(retry.userId);
    this.#refreshRetries = this.#refreshRetries.filter((retry) => retry.at > at);
    const members = [...this.#waiting];
    this.#waiting.clear();
    if (members.length > REFRESH_BY_POLL_ABOVE && this.options.pollMs > 0) await this.poll();
    else
      for (const userId of members) {
        if (this.#stopped) return;
        await this.#refreshMember(userId);
      }
    this.#refreshes.wakeAt(Math.min(...this.#refreshRetries.map((retry) => retry.at)));
  }

  async #refreshMember(userId: string): Promise<void> {
    const { store, api, logger, now } = this.options;
    try {
      const status = await api.getVote(userId, { fresh: true });
      const at = now();
      if (!status.voted || status.remainingMs === null || status.remainingMs <= 0) {
        await store.setMirrorEntry(userId, null);
        this.#writes += 1;
        this.#index?.delete(userId);
        this.#refreshFailures.delete(userId);
        return;
      }
      const known = await store.mirrorEntry(userId);
      const expiresAt = at + status.remainingMs;
      await store.setMirrorEntry(userId, { userId, expiresAt, viaDiscord: known?.viaDiscord ?? true });
      this.#writes += 1;
      this.#index?.set(userId, expiresAt);
      await store.setPeriodEnd(userId, at, expiresAt);
      await this.options.votes.running(userId, expiresAt);
      this.#refreshFailures.delete(userId);
    } catch (err) {
      logger.warn({ err, userId }, "could not refresh a member's vote; trying again later");
      this.#refreshFailed(userId);
    }
  }
}
