import type { Logger } from '../core/log.js';
import { isRefusedOutcome, newestOfEachWindow, type DeliveryLogStore, type DeliveryRecord } from '../store/index.js';
import { STORE_BACKOFF } from '../work/backoff.js';
import { DrainLoop } from '../work/drain-loop.js';

/**
 * Lines of the delivery log kept (and shown by /setup status) per server in each of its windows:
 * refusals, and the rest (store/delivery-windows.ts), so a stranger's refusals never push out
 * what was accepted.
 */
export const DELIVERIES_KEPT = 10;
/** Lines wait this long in memory, so a flood of deliveries costs one store write per interval, not one each. */
const DELIVERY_FLUSH_MS = 1_000;
/** Servers whose lines may wait at once; past it new servers' lines are not kept until the next write. */
const SERVERS_WAITING_MAX = 10_000;

export interface DeliveryLogOptions {
  store: DeliveryLogStore;
  logger: Logger;
  keep?: number;
  flushMs?: number;
}

/**
 * The delivery log's writer. `record` only appends to memory (the newest `keep` of each window per
 * server), so the receiver never waits on it and a flood of bad deliveries can neither slow good
 * ones nor grow anything without bound; a timer writes what waits in one transaction, which also
 * trims each server to its newest lines. A failed write keeps its lines and is retried with the
 * store's backoff.
 */
export class DeliveryLog {
  #waiting = new Map<string, DeliveryRecord[]>();
  /** The lines of the write in flight, until it lands. */
  #writing: Map<string, DeliveryRecord[]> | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #loop: DrainLoop;
  readonly #keep: number;

  constructor(private readonly options: DeliveryLogOptions) {
    this.#keep = options.keep ?? DELIVERIES_KEPT;
    this.#loop = new DrainLoop(() => this.#write(), {
      backoff: STORE_BACKOFF,
      warn: { logger: options.logger, line: 'could not write the webhook delivery log; trying again' },
    });
  }

  record(entry: DeliveryRecord): void {
    if (this.#loop.stopped) return;
    let lines = this.#waiting.get(entry.guildId);
    if (!lines) {
      if (this.#waiting.size >= SERVERS_WAITING_MAX) return;
      lines = [];
      this.#waiting.set(entry.guildId, lines);
    }
    lines.push(entry);
    // The oldest line of the new one's window goes once that window is full; the other window's stay.
    const refused = isRefusedOutcome(entry.outcome);
    const same = lines.filter((line) => isRefusedOutcome(line.outcome) === refused);
    if (same.length > this.#keep) lines.splice(lines.indexOf(same[0]!), 1);
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.#loop.wake();
    }, this.options.flushMs ?? DELIVERY_FLUSH_MS);
    this.#timer.unref();
  }

  /** The server's lines not stored yet (waiting or being written), newest first: `/setup status` shows them. */
  waiting(guildId: string): DeliveryRecord[] {
    const lines = [...(this.#writing?.get(guildId) ?? []), ...(this.#waiting.get(guildId) ?? [])];
    return newestOfEachWindow(lines.reverse(), this.#keep);
  }

  /** Writes what waits, then stops. */
  async stop(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#waiting.size > 0) await this.#write().catch(() => undefined);
    await this.#loop.stop();
  }

  async #write(): Promise<void> {
    const batch = this.#waiting;
    if (batch.size === 0) return;
    this.#waiting = new Map();
    this.#writing = batch;
    try {
      await this.options.store.recordDeliveries([...batch.values()].flat(), this.#keep);
    } catch (err) {
      // Kept for the retry, older lines before those that came meanwhile, still the newest `keep` of each window.
      for (const [guildId, lines] of batch) {
        const merged = [...lines, ...(this.#waiting.get(guildId) ?? [])].reverse();
        this.#waiting.set(guildId, newestOfEachWindow(merged, this.#keep).reverse());
      }
      throw err;
    } finally {
      this.#writing = undefined;
    }
  }
}
