import type { Logger } from '../core/log.js';
import type { SweepStore } from '../store/index.js';
import { DrainLoop } from '../work/drain-loop.js';
import { OutageLines } from '../work/outage-lines.js';

/** A server's lanes, as far as a redraw found for one of its channels needs them. */
export interface RedrawTarget {
  wakeChannel(channelId: string): void;
}

/** How often a gateway process looks for feed posts another process left to redraw. */
const REDRAW_SWEEP_MS = 5_000;

/**
 * Feed posts that a process which posts nothing left to redraw. A reply answered by `npm run
 * interactions` or `npm run dashboard` records the answer in the store, but the lane that redraws the
 * review's post runs in the gateway process that owns the server, which no one woke. One read of due
 * redraws over every server (an empty partial index most of the time) wakes the lanes of the servers
 * this process runs; a lane waiting out a backoff or a parked channel keeps waiting.
 */
export class RedrawSweep {
  readonly #lanes = new Map<string, RedrawTarget>();
  // Its ticks start a pass unless one runs: a slow store never piles passes up.
  readonly #loop = new DrainLoop(() => this.sweep());
  readonly #lines: OutageLines;

  constructor(
    private readonly options: {
      store: Pick<SweepStore, 'dueRedrawsAll'>;
      logger: Logger;
      everyMs?: number;
    },
  ) {
    this.#lines = new OutageLines(options.logger, {
      down: 'could not read the feed redraws due; trying again',
      back: 'feed redraws are read again',
    });
  }

  /** The server's work started here: its lanes are woken for the redraws found. */
  join(guildId: string, lanes: RedrawTarget): void {
    this.#lanes.set(guildId, lanes);
  }

  leave(guildId: string, lanes: RedrawTarget): void {
    if (this.#lanes.get(guildId) === lanes) this.#lanes.delete(guildId);
  }

  start(): void {
    this.#loop.every(this.options.everyMs ?? REDRAW_SWEEP_MS);
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** One pass; a store that fails is told once per outage, and the next pass tries again. */
  async sweep(): Promise<void> {
    if (this.#lanes.size === 0) return;
    try {
      for (const { guildId, channelId } of await this.options.store.dueRedrawsAll())
        this.#lanes.get(guildId)?.wakeChannel(channelId);
      this.#lines.worked();
    } catch (err) {
      this.#lines.failed({ err });
    }
  }
}
