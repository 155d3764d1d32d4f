import type { Logger } from '../core/log.js';
import type { ServerRecordStore } from '../store/index.js';

/** The safety net: the whole set is read again this often, whatever notifications said. */
const SERVER_IDS_REFRESH_MS = 5 * 60_000;
/**
 * While notifications cannot be heard (the listener is connecting or reconnecting), a delivery for
 * a server not in the set reads the set again, at most once per this: a server set up meanwhile is
 * accepted within it, and a flood of made-up ids costs one small read per interval, not one each.
 */
const MISS_REFRESH_MS = 5_000;

export interface KnownServersOptions {
  store: Pick<ServerRecordStore, 'webhookServerIds'>;
  logger: Logger;
  /** Single-server mode's server: it takes deliveries (WEBHOOK_TOKEN) whatever its record says. */
  alwaysTakes?: string;
  now?: () => number;
  refreshMs?: number;
  missRefreshMs?: number;
}

/**
 * The servers that take webhook deliveries, in memory, so a delivery for any other id is answered
 * without touching the store (a stranger could otherwise make the store work once per request).
 * Read whole at start and every SERVER_IDS_REFRESH_MS; between reads, the store's notifications
 * (`heard`, when a server is saved or forgotten) and this process's own /setup add ids at once.
 * An id is a candidate only: its record is still read and checked before a delivery is taken, and
 * `drop` removes it when the record says it takes none.
 */
export class KnownServers {
  #ids = new Set<string>();
  #listening = false;
  #readAt = -Infinity;
  #reading: Promise<void> | undefined;
  /** Ids heard while a read is out: the read may have started before their commit. */
  #heardMeanwhile = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  readonly #now: () => number;

  constructor(private readonly options: KnownServersOptions) {
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#ids.size;
  }

  /** Reads the set, then again every SERVER_IDS_REFRESH_MS until `stop`. */
  async start(): Promise<void> {
    await this.#read();
    this.#timer = setInterval(() => this.#readInBackground(), this.options.refreshMs ?? SERVER_IDS_REFRESH_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** Whether a delivery for this server may be taken; false needs no store read while notifications are heard. */
  async mayTake(guildId: string): Promise<boolean> {
    if (guildId === this.options.alwaysTakes || this.#ids.has(guildId)) return true;
    // A read under way (the one a listener's start makes) may hold it: waited for, never a second one.
    if (this.#reading) await this.#reading;
    if (this.#ids.has(guildId) || this.#listening) return this.#ids.has(guildId);
    if (this.#now() - this.#readAt >= (this.options.missRefreshMs ?? MISS_REFRESH_MS)) await this.#read();
    return this.#ids.has(guildId);
  }

  /** The store said this server changed (a notification, or a /setup in this process): its record is read next time. */
  heard(guildId: string): void {
    this.#ids.add(guildId);
    if (this.#reading) this.#heardMeanwhile.add(guildId);
  }

  /** Its record was read and takes no deliveries (never set up, left, or forgotten). */
  drop(guildId: string): void {
    this.#ids.delete(guildId);
  }

  /**
   * Notifications are heard from now on, or no longer. When they start (at start too: a server saved
   * between the first read and the listener's LISTEN sent its notification to nobody) the set is read
   * again, and misses wait for that read.
   */
  listening(heard: boolean): void {
    if (heard) this.#readInBackground();
    this.#listening = heard;
  }

  /** A failed read keeps the set as it was; the next one (a miss, a reconnect, the timer) tries again. */
  #readInBackground(): void {
    this.#read().catch((err: unknown) =>
      this.options.logger.warn({ err }, 'could not read the servers that take webhook deliveries; trying later'),
    );
  }

  /** One read at a time; those asking meanwhile share it. */
  #read(): Promise<void> {
    this.#reading ??= (async () => {
      // Counted from the try, failed or not: with the store down, misses do not retry it each.
      this.#readAt = this.#now();
      try {
        const ids = await this.options.store.webhookServerIds();
        this.#ids = new Set([...ids, ...this.#heardMeanwhile]);
      } finally {
        this.#reading = undefined;
        this.#heardMeanwhile.clear();
      }
    })();
    return this.#reading;
  }
}
