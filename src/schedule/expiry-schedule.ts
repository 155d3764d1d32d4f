import type { Logger } from '../core/log.js';
import { SAME_VOTE_END_MS } from '../mirror/mirror-options.js';
import {
  GUILDS_SITE,
  type ExpiryStore,
  type MirrorStore,
  type ScheduledExpiry,
  type VoteLedger,
} from '../store/index.js';
import { backoffMs } from '../work/backoff.js';
import { eachAtOnce } from '../work/each-at-once.js';
import { healAll, offerAll, offerEach, type ExpiryConsumer, type RunningVote } from './expiry-consumers.js';
import { KnownEnds } from './known-ends.js';

/**
 * The process's one pass over every server's schedule (expiry-sweep.ts): it reads what is due for
 * all of them at once, fires each server's entries here, and reconciles one server after another.
 */
export interface ExpiryPass {
  join(schedule: ExpirySchedule): void;
  leave(schedule: ExpirySchedule): void;
  /** Fire what is due at `at` (epoch ms), unless woken sooner. */
  wakeAt(at: number): void;
}

export interface ExpiryScheduleOptions {
  guildId: string;
  pass: ExpiryPass;
  /** The schedule, the mirror (Guilds' running votes) and the ledger (every list's). */
  store: ExpiryStore & Pick<MirrorStore, 'mirrorEntries'> & Pick<VoteLedger, 'runningVotes'>;
  logger: Logger;
  now: () => number;
  consumers: readonly ExpiryConsumer[];
  /** How often the schedule is checked against the vote mirror (and failed expiries retried). */
  reconcileMs: number;
  /** Expiries handled at once; discord.js queues each route's calls anyway, so more buys nothing. */
  concurrency?: number;
}

/** How long ends `/vote` answers showed gather before they are written together. */
const GATHER_MS = 20;

/**
 * "Member M's vote period ends at T", kept in the store so restarts neither lose nor repeat an
 * expiry. The process's pass fires due entries (overdue ones once this server is reconciled) and
 * reconciles against the mirror at start and every reconcileMs, healing missed events; this server
 * has no timer of its own.
 */
export class ExpirySchedule {
  /** Entries that failed wait until then; each failure in a row doubles the wait, up to reconcileMs. */
  #retryAt = 0;
  #failures = 0;
  #stopped = false;
  #reconciled = false;
  /** The ends this schedule wrote to the store and has not cleared. */
  readonly #known = new KnownEnds();
  /** Ends offered and not written yet, and the write they wait for (made at the first offer). */
  #gathered: Map<string, number> | undefined;
  #gathering: Promise<void> | undefined;
  #writing: Promise<void> = Promise.resolve();
  /** The firing under way, waited for by stop(). */
  #firingNow: Promise<void> = Promise.resolve();

  constructor(private readonly options: ExpiryScheduleOptions) {}

  get guildId(): string {
    return this.options.guildId;
  }

  /** Reconciled once since start: its overdue entries may fire (a stale end is moved first). */
  get reconciled(): boolean {
    return this.#reconciled;
  }

  /** Joins the process's pass: reconciled with the mirror (offering every running vote), then fired. */
  start(): void {
    this.options.pass.join(this);
  }

  async stop(): Promise<void> {
    // Ends already offered are written before the schedule stops.
    await this.#gathering;
    this.#stopped = true;
    this.options.pass.leave(this);
    // A reconcile under way is not waited for: it looks at #stopped between its steps.
    await this.#firingNow;
  }

  /** A vote became known (a delivery, a refresh): its end is scheduled or moved now. */
  voteKnown(userId: string, endsAt: number): Promise<void> {
    // Newer than whatever a `/vote` answer offered for the member and is still gathered.
    this.#gathered?.delete(userId);
    return this.votesKnown([{ userId, endsAt }]);
  }

  /**
   * Another list's vote was recorded: the store has moved the member's end already (to this one
   * when it is the latest), so every consumer is offered the vote whatever the end was before.
   */
  listVoteRecorded(userId: string, endsAt: number): Promise<void> {
    this.#gathered?.delete(userId);
    return this.votesKnown([{ userId, endsAt }], true);
  }

  /**
   * A `/vote` answer showed a running vote. Nobody waits on it, and answers offer new voters one
   * by one (SQLite syncs every commit): ends seen within GATHER_MS are written together, a
   * statement and a commit for them all.
   */
  voteSeen(userId: string, endsAt: number): Promise<void> {
    if (this.#stopped || endsAt <= this.options.now()) return Promise.resolve();
    const known = this.#known.endOf(userId);
    if (known !== undefined && Math.abs(known - endsAt) < SAME_VOTE_END_MS) return Promise.resolve();
    (this.#gathered ??= new Map()).set(userId, endsAt);
    if (!this.#gathering) {
      const previous = this.#writing;
      this.#gathering = new Promise((resolve) => setTimeout(resolve, GATHER_MS))
        .then(() => previous)
        .then(() => {
          const votes = [...(this.#gathered ?? [])].map(([id, end]) => ({ userId: id, endsAt: end }));
          this.#gathered = undefined;
          this.#gathering = undefined;
          this.#writing = this.votesKnown(votes);
          return this.#writing;
        });
    }
    return this.#gathering;
  }

  /**
   * voteKnown for a poll's whole list: two reads and a few writes for the ends not known yet,
   * rather than three statements per member (thousands of servers polling at start).
   */
  async votesKnown(votes: readonly RunningVote[], offer = false): Promise<void> {
    const { logger, now } = this.options;
    const at = now();
    const changed = votes.filter(({ userId, endsAt }) => {
      const known = this.#known.endOf(userId);
      return endsAt > at && (offer || known === undefined || Math.abs(known - endsAt) >= SAME_VOTE_END_MS);
    });
    if (this.#stopped || changed.length === 0) return;
    try {
      const scheduled = await this.#write(changed);
      // Running ends an earlier process scheduled, seen here for the first time: whether it acted on
      // them (a grant queued when it was killed) is unknown, so they are checked as a start does.
      const unsure: RunningVote[] = [];
      for (const { userId, endsAt } of changed) {
        const known = this.#known.endOf(userId);
        const firstSight = known === undefined;
        this.#known.remember(userId, endsAt);
        const before = scheduled.get(userId);
        // An offered vote (another list's) is new unless this schedule knew one running already.
        const fresh = offer ? known === undefined || known <= at : before === undefined || before <= at;
        if (fresh) await offerEach(this.options, userId, endsAt);
        else if (firstSight) unsure.push({ userId, endsAt });
      }
      if (unsure.length > 0) await offerAll(this.options, unsure, true, () => this.#stopped);
      this.options.pass.wakeAt(Math.max(Math.min(...changed.map((vote) => vote.endsAt)), this.#retryAt));
    } catch (err) {
      logger.warn({ err, votes: changed.length }, 'could not schedule the end of votes');
    }
  }

  /** Writes the ends; returns the ones they replaced. One end (a delivery's) is a single statement. */
  async #write(votes: readonly RunningVote[]): Promise<Map<string, number>> {
    const { store } = this.options;
    if (votes.length === 1) {
      const [{ userId, endsAt }] = votes as [RunningVote];
      const before = await store.rescheduleExpiry(userId, endsAt);
      return new Map(before === undefined ? [] : [[userId, before]]);
    }
    return store.rescheduleExpiries(votes);
  }

  /**
   * Brings the schedule in line with the mirror; the first pass (and one a consumer asks for) offers
   * every vote. Failed entries may be tried again at the pass's next firing.
   */
  async reconcile(): Promise<void> {
    if (this.#stopped) return;
    await this.#reconcileWithMirror();
    this.#retryAt = 0;
  }

  async #reconcileWithMirror(): Promise<void> {
    const { store, logger, now, consumers } = this.options;
    const full = !this.#reconciled || consumers.some((c) => c.wantsFullReconcile?.() ?? false);
    try {
      const at = now();
      const running: RunningVote[] = [];
      const offers: RunningVote[] = [];
      const scheduled = await store.scheduledExpiries();
      const otherLists = await this.#otherListsRunning(at);
      const moved: RunningVote[] = [];
      const consider = (userId: string, guildsEnd: number) => {
        // The store keeps the latest end over every list: one from another list is not rewritten.
        const endsAt = Math.max(guildsEnd, otherLists.get(userId) ?? 0);
        const vote = { userId, endsAt };
        running.push(vote);
        const before = scheduled.get(userId);
        if (before !== endsAt) moved.push(vote);
        if (full || before === undefined || before <= at) offers.push(vote);
      };
      const mirrored = new Set<string>();
      for (const entry of await store.mirrorEntries()) {
        if (entry.expiresAt <= at) continue;
        mirrored.add(entry.userId);
        consider(entry.userId, entry.expiresAt);
      }
      // Voters on other lists only: the role stays (and is healed) while any list's vote runs.
      for (const [userId, endsAt] of otherLists) if (!mirrored.has(userId)) consider(userId, endsAt);
      if (this.#stopped) return;
      await store.scheduleExpiries(moved);
      for (const { userId, endsAt } of running) this.#known.remember(userId, endsAt);
      this.#reconciled = true;
      await offerAll(this.options, offers, full, () => this.#stopped);
      if (offers.length > 0)
        logger.info({ offered: offers.length, full }, 'vote expiry schedule reconciled with the mirror');
      if (!full)
        await healAll(
          this.options,
          running.map((vote) => vote.userId),
        );
    } catch (err) {
      logger.warn({ err }, 'could not reconcile the vote expiry schedule');
    }
  }

  /**
   * Members whose latest running vote is on a list other than Guilds, with its end: a read of the
   * ledger, and a second one when any vote runs.
   */
  async #otherListsRunning(at: number): Promise<Map<string, number>> {
    const { store } = this.options;
    const latest = await store.runningVotes(at);
    if (latest.size === 0) return new Map();
    const guilds = await store.runningVotes(at, GUILDS_SITE);
    const others = new Map<string, number>();
    for (const [userId, endsAt] of latest) if (endsAt > (guilds.get(userId) ?? 0)) others.set(userId, endsAt);
    return others;
  }

  /**
   * Expires `due` (this server's entries the pass read). Entries that fail wait for a backoff
   * (never longer than the reconcile interval), not a tight loop against a refusing Discord; they
   * are never given up.
   */
  fire(due: readonly ScheduledExpiry[]): Promise<void> {
    const { now, reconcileMs } = this.options;
    if (this.#stopped || now() < this.#retryAt) return Promise.resolve();
    const firing = (async () => {
      let failed = 0;
      await eachAtOnce(
        due,
        this.options.concurrency ?? 4,
        async (entry) => {
          if (!(await this.#expire(entry))) failed += 1;
        },
        () => this.#stopped,
      );
      this.#failures = failed > 0 ? this.#failures + 1 : 0;
      this.#retryAt = failed > 0 ? now() + backoffMs(this.#failures, { baseMs: 1_000, capMs: reconcileMs }) : 0;
      if (failed > 0) this.options.pass.wakeAt(this.#retryAt);
    })();
    this.#firingNow = firing.catch(() => undefined);
    return firing;
  }

  /** Runs every consumer; the entry is cleared only when all of them are done with it. */
  async #expire(entry: ScheduledExpiry): Promise<boolean> {
    let done = true;
    for (const consumer of this.options.consumers) {
      try {
        await consumer.onExpired(entry.userId, entry.endsAt);
      } catch (err) {
        done = false;
        this.options.logger.debug({ err, userId: entry.userId, consumer: consumer.name }, 'vote expiry kept for later');
      }
    }
    if (done) {
      this.#known.forget(entry.userId);
      await this.options.store.clearExpiry(entry.userId, entry.endsAt);
    }
    return done;
  }
}
