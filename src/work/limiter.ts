/**
 * At most `limit` tasks run at once; the rest wait in a queue and start in the order they came, as
 * running ones end (whether they succeed or fail). For work whose cost is memory held while it runs
 * (a picture being drawn): the queue holds only the callers' closures.
 */
export class Limiter {
  #active = 0;
  readonly #queue: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`a limiter needs a limit of 1 or more, not ${limit}`);
  }

  /** Running now. */
  get active(): number {
    return this.#active;
  }

  /** Waiting for a turn. */
  get waiting(): number {
    return this.#queue.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active >= this.limit) await new Promise<void>((resolve) => this.#queue.push(resolve));
    else this.#active += 1;
    try {
      return await task();
    } finally {
      // The turn passes straight to the next in line, so none can jump the queue meanwhile.
      const next = this.#queue.shift();
      if (next) next();
      else this.#active -= 1;
    }
  }
}
