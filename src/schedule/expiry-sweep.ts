import type { Logger } from '../core/log.js';
import type { DueExpiryOf, SweepCursor, SweepStore } from '../store/index.js';
import { STORE_BACKOFF } from '../work/backoff.js';
import { DrainLoop } from '../work/drain-loop.js';
import { eachAtOnce } from '../work/each-at-once.js';
import type { ExpiryPass, ExpirySchedule } from './expiry-schedule.js';

export interface ExpirySweepOptions {
  store: Pick<SweepStore, 'dueExpiriesAll' | 'nextExpiryAfter'>;
  logger: Logger;
  now: () => number;
  /** How often every server's schedule is reconciled with its mirror (EXPIRY_CHECK_SECONDS). */
  reconcileMs: number;
  /** Servers reconciled at once: the rest of the store's connections stay free for members and posts. */
  concurrency?: number;
}

/** Due entries read at once, over every server. */
const BATCH = 500;
/** Servers fired at once; each fires its own entries a few at a time. */
const SERVERS_AT_ONCE = 4;
/** While servers are reconciled, what they made due fires this often, not after the whole round. */
const FIRE_EVERY_MS = 1_000;

/**
 * One expiry pass for every server a process runs: a single read of what is due over all of them
 * (and of the next end, for the one timer), and one reconcile loop that takes the servers one after
 * another (a few at once) at start and every reconcileMs, spread over half of it. 5,000 servers
 * with a timer, a due read and a reconcile each at once held PostgreSQL's pool for minutes at start.
 */
export class ExpirySweep implements ExpiryPass {
  readonly #schedules = new Map<string, ExpirySchedule>();
  /** Servers waiting for a reconcile: joined ones first, then a whole round each reconcileMs. */
  readonly #pending = new Set<string>();
  readonly #firing: DrainLoop;
  readonly #reconciles: DrainLoop;
  /** A periodic round is spread over the interval; one after joins runs at once. */
  #paced = false;

  constructor(private readonly options: ExpirySweepOptions) {
    this.#firing = new DrainLoop(() => this.#fire(), {
      backoff: STORE_BACKOFF,
      warn: { logger: options.logger, line: 'could not read due vote expiries' },
    });
    this.#reconciles = new DrainLoop(() => this.#reconcile(), {
      warn: { logger: options.logger, line: 'could not reconcile the vote expiry schedules' },
    });
    this.#reconciles.every(options.reconcileMs, () => {
      for (const guildId of this.#schedules.keys()) this.#pending.add(guildId);
      this.#paced = true;
      this.#reconciles.wake();
    });
  }

  get size(): number {
    return this.#schedules.size;
  }

  join(schedule: ExpirySchedule): void {
    this.#schedules.set(schedule.guildId, schedule);
    this.#pending.add(schedule.guildId);
    this.#reconciles.wake();
  }

  leave(schedule: ExpirySchedule): void {
    if (this.#schedules.get(schedule.guildId) !== schedule) return;
    this.#schedules.delete(schedule.guildId);
    this.#pending.delete(schedule.guildId);
  }

  wakeAt(at: number): void {
    this.#firing.wakeAt(at, this.options.now());
  }

  async stop(): Promise<void> {
    await Promise.all([this.#reconciles.stop(), this.#firing.stop()]);
  }

  async #reconcile(): Promise<void> {
    const { concurrency = 2, reconcileMs } = this.options;
    let firedAt = this.options.now();
    const worker = async () => {
      for (;;) {
        const next = this.#pending.values().next();
        if (next.done || this.#reconciles.stopped) return;
        this.#pending.delete(next.value);
        const schedule = this.#schedules.get(next.value);
        if (!schedule) continue;
        const started = this.options.now();
        await schedule.reconcile();
        if (this.options.now() - firedAt >= FIRE_EVERY_MS) {
          firedAt = this.options.now();
          this.#firing.wake();
        }
        if (this.#paced && this.#pending.size > 0) {
          // Half the interval for a round, whatever the number of servers.
          const share = (reconcileMs * concurrency) / 2 / Math.max(1, this.#schedules.size);
          const wait = share - (this.options.now() - started);
          if (wait > 0) await this.#reconciles.sleep(wait);
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    this.#paced = false;
    this.#firing.wake();
  }

  async #fire(): Promise<void> {
    const { store, now } = this.options;
    const at = now();
    let cursor: SweepCursor | undefined;
    for (;;) {
      const due = await store.dueExpiriesAll(at, cursor, BATCH);
      await this.#fireGroups(groupByServer(due));
      const last = due.at(-1);
      if (due.length < BATCH || last === undefined || this.#firing.stopped) break;
      cursor = { at: last.endsAt, guildId: last.guildId, key: last.userId };
    }
    const next = await store.nextExpiryAfter(at);
    if (next !== undefined) this.#firing.wakeAt(next, now());
  }

  /** Each server's due entries to its schedule, a few servers at once; one not reconciled yet waits. */
  async #fireGroups(groups: Map<string, DueExpiryOf[]>): Promise<void> {
    const fire = async ([guildId, due]: [string, DueExpiryOf[]]) => {
      const schedule = this.#schedules.get(guildId);
      // Another process's server, or one stopped: not this pass's to fire.
      if (!schedule?.reconciled) return;
      try {
        await schedule.fire(due);
      } catch (err) {
        this.options.logger.warn({ err, guildId }, 'could not fire due vote expiries');
      }
    };
    await eachAtOnce([...groups], SERVERS_AT_ONCE, fire, () => this.#firing.stopped);
  }
}

function groupByServer(due: readonly DueExpiryOf[]): Map<string, DueExpiryOf[]> {
  const groups = new Map<string, DueExpiryOf[]>();
  for (const entry of due) {
    const group = groups.get(entry.guildId);
    if (group) group.push(entry);
    else groups.set(entry.guildId, [entry]);
  }
  return groups;
}
