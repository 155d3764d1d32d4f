import type { MirrorEntry } from '../store/index.js';
import { backoffMs } from '../work/backoff.js';
import { DrainLoop } from '../work/drain-loop.js';
import { ASSUMED_VOTE_PERIOD_MS, MIRROR_BACKOFF, type VoteMirrorOptions } from './mirror-options.js';

/** More members than this waiting for a refresh: one GET /votes serves them all. */
const REFRESH_BY_POLL_ABOVE = 5;

/** What the refreshes need of the mirror they keep: its one writer of entries, and its polls. */
export interface RefreshedMirror {
  /** The member's entry as the mirror knows it (from memory once loaded). */
  entryOf(userId: string): Promise<MirrorEntry | undefined>;
  /** Writes the member's entry (null: none) to the store and the mirror's memory. */
  write(userId: string, entry: MirrorEntry | null): Promise<void>;
  poll(): Promise<void>;
  /** A refresh failed while polls run: the next poll comes sooner instead of a retry of its own. */
  pollSooner(): void;
}

/**
 * Members a webhook named, fetched again one at a time (or by a poll when many wait); without polls,
 * the votes a stop left unrefreshed, read once at start, and each failed refresh tried again later.
 */
export class MirrorRefreshes {
  /** Members a webhook named, a batch at a time; without polls also those whose refresh failed, when due. */
  #loop: DrainLoop | undefined;
  /** Without polls: the votes a stop left unrefreshed, read once at start (a failed read is retried with backoff). */
  #unconfirmedLoop: DrainLoop | undefined;
  /** Members a webhook named and the loop has not taken yet (made at the first). */
  #waiting: Set<string> | undefined;
  /** Without polls, members whose refresh failed, with how often it failed (made at the first failure). */
  #failures: Map<string, number> | undefined;
  /** Without polls, the refreshes that failed, each tried again at its own time. */
  #retries: Array<{ readonly userId: string; readonly at: number }> = [];
  #stopped = false;

  constructor(
    private readonly options: VoteMirrorOptions,
    private readonly mirror: RefreshedMirror,
  ) {}

  // Made when first needed: most servers of a process are never refreshed between polls.
  get #refreshes(): DrainLoop {
    return (this.#loop ??= new DrainLoop(() => this.#refreshWaiting()));
  }

  get #unconfirmed(): DrainLoop {
    return (this.#unconfirmedLoop ??= new DrainLoop(() => this.#refreshUnconfirmed(), {
      backoff: MIRROR_BACKOFF,
      warn: { logger: this.options.logger, line: 'could not read the votes left unconfirmed; trying again' },
    }));
  }

  /** Without polls: the votes a stop left unrefreshed are read and refreshed. */
  start(): void {
    this.#unconfirmed.wake();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all([this.#loop?.stop(), this.#unconfirmedLoop?.stop()]);
  }

  /** A webhook said the member voted: their entry is fetched again soon. */
  soon(userId: string): void {
    if (this.#stopped) return;
    (this.#waiting ??= new Set()).add(userId);
    this.#refreshes.wake();
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
    for (const userId of members) this.soon(userId);
  }

  /** A refresh that failed: a poll covers every member, else this member is refreshed again later. */
  #refreshFailed(userId: string): void {
    if (this.#stopped) return;
    if (this.options.pollMs > 0) return this.mirror.pollSooner();
    const failures = (this.#failures ??= new Map());
    const attempt = (failures.get(userId) ?? 0) + 1;
    failures.set(userId, attempt);
    const at = Date.now() + backoffMs(attempt, MIRROR_BACKOFF);
    this.#retries.push({ userId, at });
    this.#refreshes.wakeAt(at);
  }

  /** The loop's pass: the members waiting (and retries due), then a wake-up at the next retry. */
  async #refreshWaiting(): Promise<void> {
    // Members named in the same turn of the event loop are refreshed together.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const at = Date.now();
    const members = this.#waiting ?? new Set<string>();
    this.#waiting = undefined;
    for (const retry of this.#retries) if (retry.at <= at) members.add(retry.userId);
    this.#retries = this.#retries.filter((retry) => retry.at > at);
    if (members.size > REFRESH_BY_POLL_ABOVE && this.options.pollMs > 0) await this.mirror.poll();
    else
      for (const userId of members) {
        if (this.#stopped) return;
        await this.#refreshMember(userId);
      }
    this.#refreshes.wakeAt(Math.min(...this.#retries.map((retry) => retry.at)));
  }

  async #refreshMember(userId: string): Promise<void> {
    const { store, api, logger, now } = this.options;
    try {
      const status = await api.getVote(userId, { fresh: true });
      const at = now();
      if (!status.voted || status.remainingMs === null || status.remainingMs <= 0) {
        await this.mirror.write(userId, null);
        this.#failures?.delete(userId);
        return;
      }
      // Whether the vote came through Discord is the store's row's, not read again.
      const known = await this.mirror.entryOf(userId);
      const expiresAt = at + status.remainingMs;
      await this.mirror.write(userId, { userId, expiresAt, viaDiscord: known?.viaDiscord ?? true });
      await store.setPeriodEnd(userId, at, expiresAt);
      await this.options.votes.running(userId, expiresAt);
      this.#failures?.delete(userId);
    } catch (err) {
      logger.warn({ err, userId }, "could not refresh a member's vote; trying again later");
      this.#refreshFailed(userId);
    }
  }
}
