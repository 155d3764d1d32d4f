import { ServiceError, type ServiceClient, type VoteList, type VoteStatus } from '../api/index.js';
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
import { Timetable } from '../work/timetable.js';
import type { VoteSink } from './vote-sink.js';
import { MirrorIndex } from './mirror-index.js';

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
/**
 * Every this many polls, one writes the whole list and reads the ledger again, whatever the memory
 * says: rows another writer left (a process that still polled the server while handing it over)
 * are mended within this many polls. On PostgreSQL it costs the same round trips as a change.
 */
const WHOLE_POLL_EVERY = 10;

export interface VoteMirrorOptions {
  /** The mirror, and the votes a poll records. */
  store: MirrorStore &
    Pick<VoteLedger, 'acceptVotes' | 'runningVotes' | 'setPeriodEnd' | 'setPeriodEnds' | 'unconfirmedVoters'>;
  api: ServiceClient;
  logger: Logger;
  /** VOTE_POLL_SECONDS in ms; 0 turns polling off (webhook refreshes still run). */
  pollMs: number;
  /** The process's one timer for every server's polls, and this server's key in it (alone: its own). */
  timetable?: Timetable;
  key?: string;
  now: () => number;
  /**
   * Where the votes the mirror finds go: those a poll found that no webhook reported (accepted), a
   * running vote a refresh saw (running) or a `/vote` answer showed (seen), a poll's whole list (polled).
   */
  votes: Pick<VoteSink, 'accepted' | 'running' | 'seen' | 'polled'>;
  /** The server's streak grace window (votes the poll finds continue streaks like delivered ones). */
  streakGraceMs?: number;
}

/** The same member and way of voting, and an end that moved by no more than rounding and latency. */
const sameEntry = (known: MirrorEntry | undefined, entry: MirrorEntry): boolean =>
  known !== undefined &&
  known.viaDiscord === entry.viaDiscord &&
  Math.abs(known.expiresAt - entry.expiresAt) < SAME_VOTE_END_MS;

/** The guild's active votes, kept in the store from polls of GET /votes and per-member refreshes. */
export class VoteMirror {
  /** GET /votes: at start, every pollMs after (its `every`), and sooner after a failure. */
  readonly #polls: DrainLoop;
  /** Members a webhook named, a batch at a time; without polls also those whose refresh failed, when due. */
  #refreshLoop: DrainLoop | undefined;
  /** Without polls: the votes a stop left unrefreshed, read once at start (a failed read is retried with backoff). */
  #unconfirmedLoop: DrainLoop | undefined;
  #polling: Promise<void> | undefined;
  /** Members a webhook named and the refresh loop has not taken yet (made at the first). */
  #waiting: Set<string> | undefined;
  #stopped = false;
  /** A regular poll (the first, or a tick of the loop's `every`) is due. */
  #pollDue = false;
  /** A failed poll is tried again then, well before the next regular one; Infinity: none waiting. */
  #retryAt = Infinity;
  #pollFailures = 0;
  /** Without polls, members whose refresh failed, with how often it failed (made at the first failure). */
  #refreshFailures: Map<string, number> | undefined;
  /** Without polls, the refreshes that failed, each tried again at its own time. */
  #refreshRetries: Array<{ readonly userId: string; readonly at: number }> = [];
  /**
   * The store's mirror rows by member, so `/vote` reads them with no I/O: a store query per `/vote`
   * was most of the bot's CPU under load. Filled by a poll or read once from the store, then kept in
   * step with every write below (this object is the mirror's only writer), so a poll writes only
   * what changed. Undefined after a write whose outcome is unknown: the next poll writes it all.
   */
  #index: MirrorIndex | undefined;
  #loading: Promise<MirrorIndex> | undefined;
  /** Mirror writes so far: a load or a poll's write that overlapped another is not trusted as the index. */
  #writes = 0;
  /**
   * The ledger holds every listed member's Guilds period end as the index holds it: the last poll
   * recorded its whole list, each vote taken, and nothing wrote an end since. A poll whose list is
   * the index's again has nothing to record (most polls) and skips the ledger's read. A flag, not a
   * map of the ends: the index has them already, and a process keeps the voters of every server.
   */
  #ledgerInStep = false;
  /** Polls since the last one that wrote the whole list and read the ledger. */
  #sinceWhole = 0;

  readonly #timetable: Timetable;
  readonly #key: string;

  constructor(private readonly options: VoteMirrorOptions) {
    this.#timetable = options.timetable ?? new Timetable(options.now);
    this.#key = options.key ?? 'poll';
    // A poll and a refresh catch their own failures (they back off by MIRROR_BACKOFF, a poll never
    // later than its interval): only the read of unconfirmed votes leaves its retry to the loop.
    this.#polls = new DrainLoop(() => this.#pollWhenDue());
  }

  // Made when first needed: most servers of a process are never refreshed between polls.
  get #refreshes(): DrainLoop {
    return (this.#refreshLoop ??= new DrainLoop(() => this.#refreshWaiting()));
  }

  get #unconfirmed(): DrainLoop {
    return (this.#unconfirmedLoop ??= new DrainLoop(() => this.#refreshUnconfirmed(), {
      backoff: MIRROR_BACKOFF,
      warn: { logger: this.options.logger, line: 'could not read the votes left unconfirmed; trying again' },
    }));
  }

  /**
   * Polls at `firstAt` (epoch ms: servers' polls spread over the interval) and then every pollMs,
   * on the process's timetable; without polls, refreshes the votes a stop left unrefreshed.
   */
  start(firstAt = this.options.now()): void {
    if (this.options.pollMs <= 0) return this.#unconfirmed.wake();
    // A regular poll that falls while one runs (this loop's, or one a burst of refreshes asked for) shares it.
    this.#timetable.every(this.#key, firstAt, this.options.pollMs, () => {
      if (this.#polling) return;
      this.#pollDue = true;
      this.#polls.wake();
    });
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#timetable.cancel(this.#key);
    await Promise.all([this.#polls.stop(), this.#refreshLoop?.stop(), this.#unconfirmedLoop?.stop(), this.#polling]);
  }

  /** The member's vote as the mirror shows it, if active now; undefined means "ask the service". */
  async activeVote(userId: string): Promise<VoteStatus | undefined> {
    try {
      // A member is waiting: past the deadline the service answers instead.
      const index = this.#index ?? (await storeWithin(this.#load(), INTERACTION_STORE_MS));
      const expiresAt = index.expiresAt(userId);
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
    return (this.#index ?? (await this.#load())).expiresAt(userId);
  }

  #load(): Promise<MirrorIndex> {
    this.#loading ??= (async () => {
      const writes = this.#writes;
      const entries = await this.options.store.mirrorEntries();
      const index = MirrorIndex.of(entries);
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
    (this.#waiting ??= new Set()).add(userId);
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
    const { api, logger, now } = this.options;
    try {
      const list = await api.listVotes({ fresh: true });
      const at = now();
      const entries: MirrorEntry[] = [];
      for (const vote of list.votes) {
        if (vote.remainingMs !== null && vote.remainingMs > 0)
          entries.push({ userId: vote.userId, expiresAt: at + vote.remainingMs, viaDiscord: vote.viaDiscord });
      }
      // The very first poll only learns who has voted: those votes were cast before the bot was
      // listening, and announcing a day's worth of them at once would be noise (source 'seed').
      const saved = await this.#save(entries, list, at);
      const first = !saved.polledBefore;
      logger.info({ active: entries.length, first }, 'vote mirror updated');
      const listed = entries.map((entry) => ({ userId: entry.userId, endsAt: entry.expiresAt }));
      await this.options.votes.polled(listed);
      // A listed vote with no time left is not in the index: its assumed end is recorded each poll.
      const inStep = saved.sameAsIndex && this.#ledgerInStep && entries.length === list.votes.length;
      if (!inStep) await this.#record(list.votes, at, first);
      if (this.#pollFailures > 0) logger.info({ failedPolls: this.#pollFailures }, 'vote poll works again');
      this.#pollFailures = 0;
      this.#retryAt = Infinity;
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

  /**
   * Writes a poll's list with its totals and outcome, in one statement where the store allows: only
   * the entries that changed since the index (an end within SAME_VOTE_END_MS of the stored one is the
   * same: it moves only by rounding and latency), the whole list when there is no index. Returns
   * whether an earlier poll's totals were stored, and whether the list is the index's as it was.
   */
  async #save(
    entries: readonly MirrorEntry[],
    list: VoteList,
    at: number,
  ): Promise<{ polledBefore: boolean; sameAsIndex: boolean }> {
    const whole = ++this.#sinceWhole >= WHOLE_POLL_EVERY;
    if (whole) {
      this.#sinceWhole = 0;
      this.#ledgerInStep = false;
    }
    const known = whole ? undefined : this.#index;
    const listed = new Set(entries.map((entry) => entry.userId));
    const changed = known ? entries.filter((entry) => !sameEntry(known.get(entry.userId), entry)) : entries;
    const removed = known && [...known.userIds()].filter((userId) => !listed.has(userId));
    const writes = ++this.#writes;
    let polledBefore: boolean;
    try {
      ({ polledBefore } = await this.options.store.savePoll({
        entries: changed,
        ...(removed && { removed }),
        totals: { totalVotes: list.totalVotes, monthlyVotes: list.monthlyVotes, polledAt: at },
        poll: { at, ok: true },
      }));
    } catch (err) {
      // The write may have happened or not: the index is read again when next needed.
      this.#index = undefined;
      throw err;
    }
    if (writes !== this.#writes) {
      // A refresh wrote while this poll did: which write came last is unknown.
      this.#index = undefined;
      return { polledBefore, sameAsIndex: false };
    }
    const index = known?.copy() ?? MirrorIndex.of([]);
    for (const userId of removed ?? []) index.delete(userId);
    for (const entry of changed) index.set(entry);
    this.#index = index;
    return { polledBefore, sameAsIndex: changed.length === 0 && removed?.length === 0 };
  }

  /**
   * Brings the ledger in line with a poll's list: a running vote's end moved where the service
   * says otherwise, a listed vote no webhook reported recorded. The caller skips it (nothing read)
   * when the list is the one the last poll recorded.
   */
  async #record(votes: VoteList['votes'], at: number, first: boolean): Promise<void> {
    const { store, logger } = this.options;
    this.#ledgerInStep = false;
    const writes = this.#writes;
    // One read for the whole list: most listed votes are running already and need no more work.
    // Guilds' own: another list's running vote neither hides a Guilds vote nor moves its end.
    const running = await store.runningVotes(at, GUILDS_SITE);
    const moved: Array<{ userId: string; periodEndsAt: number }> = [];
    const candidates: NewVote[] = [];
    for (const vote of votes) {
      const { userId } = vote;
      const periodEndsAt = vote.remainingMs ? at + vote.remainingMs : at + ASSUMED_VOTE_PERIOD_MS;
      const endsAt = running.get(userId);
      if (endsAt === undefined) {
        const source = first ? 'seed' : 'poll';
        candidates.push({ userId, at, double: false, source, periodEndsAt, streakGraceMs: this.options.streakGraceMs });
      } else if (Math.abs(endsAt - periodEndsAt) >= SAME_VOTE_END_MS) moved.push({ userId, periodEndsAt });
    }
    if (moved.length > 0) await store.setPeriodEnds(moved, at);
    const fresh = await store.acceptVotes(candidates);
    // A listed vote the ledger did not take (another writer recorded one first) is read again next
    // poll, and so is the list after a refresh that moved an end meanwhile (before or after these reads).
    if (writes === this.#writes && fresh.length === candidates.length) this.#ledgerInStep = true;
    const accepted = first ? 0 : fresh.length;
    if (accepted > 0) {
      logger.info({ voters: accepted }, 'poll found votes no webhook reported');
      this.options.votes.accepted();
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
    const failures = (this.#refreshFailures ??= new Map());
    const attempt = (failures.get(userId) ?? 0) + 1;
    failures.set(userId, attempt);
    const at = Date.now() + backoffMs(attempt, MIRROR_BACKOFF);
    this.#refreshRetries.push({ userId, at });
    this.#refreshes.wakeAt(at);
  }

  /** The refreshes loop's pass: the members waiting (and retries due), then a wake-up at the next retry. */
  async #refreshWaiting(): Promise<void> {
    // Members named in the same turn of the event loop are refreshed together.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const at = Date.now();
    const members = this.#waiting ?? new Set<string>();
    this.#waiting = undefined;
    for (const retry of this.#refreshRetries) if (retry.at <= at) members.add(retry.userId);
    this.#refreshRetries = this.#refreshRetries.filter((retry) => retry.at > at);
    if (members.size > REFRESH_BY_POLL_ABOVE && this.options.pollMs > 0) await this.poll();
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
        this.#refreshFailures?.delete(userId);
        return;
      }
      // The index is the store's rows: whether the vote came through Discord is read there, not again.
      const known = this.#index ? this.#index.get(userId) : await store.mirrorEntry(userId);
      const expiresAt = at + status.remainingMs;
      const entry = { userId, expiresAt, viaDiscord: known?.viaDiscord ?? true };
      await store.setMirrorEntry(userId, entry);
      this.#writes += 1;
      this.#index?.set(entry);
      this.#ledgerInStep = false;
      await store.setPeriodEnd(userId, at, expiresAt);
      await this.options.votes.running(userId, expiresAt);
      this.#refreshFailures?.delete(userId);
    } catch (err) {
      logger.warn({ err, userId }, "could not refresh a member's vote; trying again later");
      this.#refreshFailed(userId);
    }
  }
}
