import type { Logger } from './log.js';

export interface TallyLogOptions {
  level: 'info' | 'warn';
  msg: string;
  /** At most one line per this interval. */
  intervalMs?: number;
}

/** One line a minute is enough to see a trend, and few enough that no burst can fill a disk. */
const TALLY_INTERVAL_MS = 60_000;

/**
 * Counts events by kind and writes them as one line per interval, never one per event. The first
 * event after a quiet interval is written at once, so whoever is setting things up sees it on their
 * first try; those that follow within the interval are counted into the next line. Each kind keeps
 * one example (the first of its interval), so the line says what happened as well as how often.
 */
export class TallyLog<Kind extends string> {
  #counts = new Map<Kind, number>();
  #examples = new Map<Kind, string>();
  #lastWrite = -Infinity;
  #since = Date.now();
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #intervalMs: number;

  constructor(
    private readonly logger: Logger,
    private readonly options: TallyLogOptions,
  ) {
    this.#intervalMs = options.intervalMs ?? TALLY_INTERVAL_MS;
  }

  count(kind: Kind, example?: string): void {
    if (this.#counts.size === 0) this.#since = Date.now();
    this.#counts.set(kind, (this.#counts.get(kind) ?? 0) + 1);
    if (example !== undefined && !this.#examples.has(kind)) this.#examples.set(kind, example);
    if (this.#timer || this.#closed) return;
    const wait = this.#lastWrite + this.#intervalMs - Date.now();
    if (wait <= 0) {
      this.flush();
      return;
    }
    this.#timer = setTimeout(() => this.flush(), wait);
    this.#timer.unref();
  }

  /** Writes what was counted since the last line, if anything. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#counts.size === 0) return;
    const now = Date.now();
    this.logger[this.options.level](
      {
        counts: Object.fromEntries(this.#counts),
        examples: Object.fromEntries(this.#examples),
        seconds: Math.round((now - this.#since) / 1000),
      },
      this.options.msg,
    );
    this.#counts = new Map();
    this.#examples = new Map();
    this.#lastWrite = now;
  }

  close(): void {
    this.#closed = true;
    this.flush();
  }
}
