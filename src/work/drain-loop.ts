import { backoffMs, DEFAULT_BACKOFF, STORE_BACKOFF, type BackoffPolicy } from './backoff.js';

export interface DrainLoopOptions {
  /** A pass that threw is tried again after a backoff, on the loop's own timer: no wake-up is needed. */
  onError?: (err: unknown, attempt: number, retryInMs: number) => void;
  /** Instead of onError: each failed pass is one warn line, `{ err, ...fields, attempt, retryInMs }`. */
  warn?: FailedPassLine;
  backoff?: BackoffPolicy;
}

interface FailedPassLine {
  logger: { warn(fields: object, line: string): void };
  line: string;
  fields?: object;
}

/**
 * Runs `drain` one pass at a time. A wake while a pass runs asks for one more pass after it, so
 * work queued mid-pass is never left waiting for the next wake; a failed pass is retried by the
 * loop itself with capped backoff; a loop may also tick every so often (every()); after stop()
 * nothing starts.
 */
export class DrainLoop {
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = false;
  #failures = 0;
  #retry: NodeJS.Timeout | undefined;
  #later: NodeJS.Timeout | undefined;
  #laterAt = Infinity;
  #every: NodeJS.Timeout | undefined;
  /** Made by the first sleep: thousands of servers' loops a process mostly never sleep. */
  #sleepers: Set<() => void> | undefined;

  constructor(
    private readonly drain: () => Promise<void>,
    private readonly options: DrainLoopOptions = {},
  ) {}

  get stopped(): boolean {
    return this.#stopped;
  }

  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#retry);
    this.#retry = undefined;
    this.#again = false;
    this.#running = this.drain().then(
      () => {
        this.#failures = 0;
      },
      (err: unknown) => {
        this.#failures += 1;
        const wait = backoffMs(this.#failures, this.options.backoff ?? DEFAULT_BACKOFF);
        this.#failed(err, wait);
        this.#retry = setTimeout(() => this.wake(), wait);
        this.#retry.unref();
      },
    );
    void this.#running.finally(() => {
      this.#running = undefined;
      if (this.#again) this.wake();
    });
  }

  /** Wakes the loop at `at` (epoch ms) unless it is woken sooner; the earliest asked-for time wins. */
  wakeAt(at: number, now = Date.now()): void {
    if (this.#stopped || at >= this.#laterAt) return;
    clearTimeout(this.#later);
    this.#laterAt = at;
    this.#later = setTimeout(
      () => {
        this.#laterAt = Infinity;
        this.wake();
      },
      Math.min(Math.max(0, at - now), 2 ** 31 - 1),
    );
    this.#later.unref();
  }

  /**
   * From now until stop(), ticks every `ms` (the first tick `ms` from now, as setInterval: the
   * cadence does not drift with the passes' length). It has its own timer, so wakeAt() times and
   * ticks never displace each other. The plain tick starts a pass unless one is running: that pass
   * is this period's, so periodic passes never pile up behind a slow one. A worker whose periodic
   * pass does more than a woken one gives its own `tick` (note what is due, then wake()).
   */
  every(ms: number, tick: () => void = () => this.#tick()): void {
    if (this.#stopped) return;
    clearInterval(this.#every);
    this.#every = setInterval(tick, ms);
    this.#every.unref();
  }

  /** Waits `ms` inside a pass; stop() cuts it short. */
  sleep(ms: number): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const sleepers = (this.#sleepers ??= new Set());
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      sleepers.add(done);
    });
  }

  /** Stops starting passes and waits for the one running, if any. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retry);
    clearTimeout(this.#later);
    clearInterval(this.#every);
    for (const wake of [...(this.#sleepers ?? [])]) wake();
    await this.#running;
  }

  #tick(): void {
    if (!this.#running) this.wake();
  }

  #failed(err: unknown, retryInMs: number): void {
    const { onError, warn } = this.options;
    if (onError) return onError(err, this.#failures, retryInMs);
    warn?.logger.warn({ err, ...warn.fields, attempt: this.#failures, retryInMs }, warn.line);
  }
}

/**
 * A worker that is one drain loop over the store: woken when there is work, stopped with its server
 * or process; a pass that throws met the store and is tried again with the store's backoff.
 */
export abstract class StoreDrained {
  protected readonly loop: DrainLoop;

  constructor(warn: FailedPassLine) {
    this.loop = new DrainLoop(() => this.pass(), { backoff: STORE_BACKOFF, warn });
  }

  protected abstract pass(): Promise<void>;

  wake(): void {
    this.loop.wake();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
