import type { Logger } from '../core/log.js';
import type { SweepStore } from '../store/index.js';

/** How often a gateway process looks for feed posts another process left to redraw. */
export const REDRAW_SWEEP_MS = 5_000;

/**
 * Feed posts that a process which posts nothing left to redraw. A reply answered by `npm run
 * interactions` or `npm run dashboard` records the answer in the store, but the lane that redraws the
 * review's post runs in the gateway process that owns the server, which no one woke. One read of due
 * redraws over every server (an empty partial index most of the time) wakes the lanes of the servers
 * this process runs; a lane waiting out a backoff or a parked channel keeps waiting.
 */
export class RedrawSweep {
  readonly #lanes = new Map<string, (channelId: string) => void>();
  #timer: NodeJS.Timeout | undefined;
  #sweeping = false;
  #failing = false;

  constructor(
    private readonly options: {
      store: Pick<SweepStore, 'dueRedrawsAll'>;
      logger: Logger;
      everyMs?: number;
    },
  ) {}

  /** The server's work started here: its lanes are woken for the redraws found. */
  join(guildId: string, wakeChannel: (channelId: string) => void): void {
    this.#lanes.set(guildId, wakeChannel);
  }

  leave(guildId: string, wakeChannel: (channelId: string) => void): void {
    if (this.#lanes.get(guildId) === wakeChannel) this.#lanes.delete(guildId);
  }

  start(): void {
    this.#timer ??= setInterval(() => void this.sweep(), this.options.everyMs ?? REDRAW_SWEEP_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** One pass; a store that fails is told once per outage, and the next pass tries again. */
  async sweep(): Promise<void> {
    if (this.#sweeping || this.#lanes.size === 0) return;
    this.#sweeping = true;
    try {
      for (const { guildId, channelId } of await this.options.store.dueRedrawsAll())
        this.#lanes.get(guildId)?.(channelId);
      if (this.#failing) this.options.logger.info('feed redraws are read again');
      this.#failing = false;
    } catch (err) {
      if (!this.#failing) this.options.logger.warn({ err }, 'could not read the feed redraws due; trying again');
      this.#failing = true;
    } finally {
      this.#sweeping = false;
    }
  }
}
