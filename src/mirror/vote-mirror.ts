import { ServiceError, type VoteList, type VoteStatus } from '../api/index.js';
import type { MirrorEntry, PollRecord } from '../store/index.js';
import { INTERACTION_STORE_MS, storeWithin } from '../store/within.js';
import { backoffMs } from '../work/backoff.js';
import { DrainLoop } from '../work/drain-loop.js';
import { Timetable } from '../work/timetable.js';
import { MirrorIndex } from './mirror-index.js';
import { MIRROR_BACKOFF, SAME_VOTE_END_MS, type VoteMirrorOptions } from './mirror-options.js';
import { recordPolledVotes } from './poll-record.js';
import { MirrorRefreshes } from './refreshes.js';

/**
 * Every this many polls, one writes the whole list and reads the ledger again, whatever the memory
 * says: rows another writer left (a process that still polled the server while handing it over)
 * are mended within this many polls. On PostgreSQL it costs the same round trips as a change.
 */
const WHOLE_POLL_EVERY = 10;

/** The same member and way of voting, and an end that moved by no more than rounding and latency. */
const sameEntry = (known: MirrorEntry | undefined, entry: MirrorEntry): boolean =>
  known !== undefined &&
  known.viaDiscord === entry.viaDiscord &&
  Math.abs(known.expiresAt - entry.expiresAt) < SAME_VOTE_END_MS;

/** The guild's active votes, kept in the store from polls of GET /votes and per-member refreshes. */
export class VoteMirror {
  /** GET /votes: at start, every pollMs after (its `every`), and sooner after a failure. */
  readonly #polls: DrainLoop;
  /** Members a webhook named, fetched again; without polls, the votes a stop left unrefreshed. */
  #refreshesMade: MirrorRefreshes | undefined;
  #polling: Promise<void> | undefined;
  #stopped = false;
  /** A regular poll (the first, or a tick of the loop's `every`) is due. */
  #pollDue = false;
  /** A failed poll is tried again then, well before the next regular one; Infinity: none waiting. */
  #retryAt = Infinity;
  #pollFailures = 0;
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
   * The ledger holds every listed member's Guilds period end as the index does (the last poll recorded
   * its whole list and nothing wrote an end since): a poll whose list is the index's again (most)
   * skips the ledger's read. A flag, not the ends: the index has them, for every server of a process.
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
  get #refreshes(): MirrorRefreshes {
    return (this.#refreshesMade ??= new MirrorRefreshes(this.options, {
      entryOf: async (userId) => (this.#index ? this.#index.get(userId) : await this.options.store.mirrorEntry(userId)),
      write: (userId, entry) => this.#write(userId, entry),
      poll: () => this.poll(),
      pollSooner: () => {
        this.#pollFailures = Math.max(this.#pollFailures, 1);
        this.#retryPoll();
      },
    }));
  }

  /**
   * Polls at `firstAt` (epoch ms: servers' polls spread over the interval) and then every pollMs,
   * on the process's timetable; without polls, refreshes the votes a stop left unrefreshed.
   */
  start(firstAt = this.options.now()): void {
    if (this.options.pollMs <= 0) return this.#refreshes.start();
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
    await Promise.all([this.#polls.stop(), this.#refreshesMade?.stop(), this.#polling]);
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
    if (!this.#stopped) this.#refreshes.soon(userId);
  }

  /** The polls loop's pass: a poll if a regular one or a retry is due, then a wake-up at the retry. */
  async #pollWhenDue(): Promise<void> {
    if (this.#pollDue || Date.now() >= this.#retryAt) {
      this.#pollDue = false;
      await this.poll();
    }
    this.#polls.wakeAt(this.#retryAt);
  }

  async #poll(): Promise<void> {
    const { api, logger, now } = this.options;
    try {
      const list = await api.listVotes({ fresh: true });
      const write = () => this.#written(list);
      await (this.options.writeTurns?.run(write) ?? write());
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

  /** What a poll found, in the store: the mirror, the votes it learned, and the ledger's ends. */
  async #written(list: VoteList): Promise<void> {
    const at = this.options.now();
    const entries = list.votes.flatMap(({ userId, remainingMs, viaDiscord }): MirrorEntry[] =>
      remainingMs !== null && remainingMs > 0 ? [{ userId, expiresAt: at + remainingMs, viaDiscord }] : [],
    );
    // The very first poll only learns who has voted: those votes were cast before the bot was
    // listening, and announcing a day's worth of them at once would be noise (source 'seed').
    const saved = await this.#save(entries, list, at);
    const first = !saved.polledBefore;
    this.options.logger.info({ active: entries.length, first }, 'vote mirror updated');
    await this.options.votes.polled(entries.map((entry) => ({ userId: entry.userId, endsAt: entry.expiresAt })));
    // A listed vote with no time left is not in the index: its assumed end is recorded each poll.
    const inStep = saved.sameAsIndex && this.#ledgerInStep && entries.length === list.votes.length;
    if (!inStep) await this.#record(list.votes, at, first);
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

  /** The ledger brought in line with the list (poll-record.ts). */
  async #record(votes: VoteList['votes'], at: number, first: boolean): Promise<void> {
    this.#ledgerInStep = false;
    const writes = this.#writes;
    const allTaken = await recordPolledVotes(this.options, votes, at, first);
    // A listed vote the ledger did not take is read again next poll, and so is the list after a
    // refresh that moved an end meanwhile (before or after these reads).
    if (writes === this.#writes && allTaken) this.#ledgerInStep = true;
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

  /** The mirror's one write of a member's entry: the store's row, then the index in step with it. */
  async #write(userId: string, entry: MirrorEntry | null): Promise<void> {
    await this.options.store.setMirrorEntry(userId, entry);
    this.#writes += 1;
    if (entry === null) {
      this.#index?.delete(userId);
      return;
    }
    this.#index?.set(entry);
    this.#ledgerInStep = false;
  }
}
