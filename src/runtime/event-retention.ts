import type { Logger } from '../core/log.js';
import type { ShardSet } from '../shards/ownership.js';
import type { EventStore } from '../store/index.js';

/**
 * Handled webhook events are kept this long, then dropped. Nothing reads them back (votes dedupe
 * in the ledger, reviews by their id, the delivery log keeps its own lines), so this only leaves
 * time to look into a recent delivery by hand; a server's newest event stays for /setup status.
 */
export const HANDLED_EVENTS_KEPT_MS = 7 * 24 * 3_600_000;
/** How often a process looks for handled events past their age. */
const RETENTION_EVERY_MS = 3_600_000;
/** Rows one DELETE takes, and statements one pass runs, so a pass never holds the inbox up long. */
const ROWS_PER_DELETE = 500;
const DELETES_PER_PASS = 20;

export interface EventRetentionOptions {
  store: Pick<EventStore, 'dropHandledEvents'>;
  logger: Logger;
  /** Only events of servers on these shards (this process's); all without. */
  shards?: ShardSet;
  keptMs?: number;
  everyMs?: number;
}

/**
 * Keeps the events table's size following the number of servers, not the deliveries ever made: a
 * pass at most every hour for all the servers this process owns, in bounded deletes. A pass that
 * hit its bound is due again at once, so a long backlog goes over several passes.
 */
export class EventRetention {
  #dueAt = 0;

  constructor(private readonly options: EventRetentionOptions) {}

  /** When the next pass is due (epoch ms). */
  get dueAt(): number {
    return this.#dueAt;
  }

  /** Runs a pass if one is due; how many events it dropped. */
  async passIfDue(now: number): Promise<number> {
    if (now < this.#dueAt) return 0;
    const { store, logger, shards } = this.options;
    const keptMs = this.options.keptMs ?? HANDLED_EVENTS_KEPT_MS;
    let dropped = 0;
    let more = false;
    for (let i = 0; i < DELETES_PER_PASS; i++) {
      const gone = await store.dropHandledEvents(now - keptMs, ROWS_PER_DELETE, shards);
      dropped += gone;
      more = gone === ROWS_PER_DELETE;
      if (!more) break;
    }
    this.#dueAt = more ? now : now + (this.options.everyMs ?? RETENTION_EVERY_MS);
    if (dropped > 0) {
      logger.info({ dropped, keptDays: keptMs / 86_400_000 }, 'dropped handled webhook events past their age');
    }
    return dropped;
  }
}
