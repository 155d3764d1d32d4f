/** Lets callers wait until a condition over mutable state holds; the owner calls notify() on change. */
export class Signal {
  private readonly waiters = new Set<{ check: () => void; fail: (error: Error) => void }>();

  notify(): void {
    for (const waiter of [...this.waiters]) waiter.check();
  }

  /** `pollMs` also re-checks on a timer, for conditions over state that does not notify. */
  wait(condition: () => boolean, timeoutMs: number, describe: () => string, pollMs = 0): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter = {
        check: (): void => {
          if (!condition()) return;
          waiter.fail = () => {};
          this.waiters.delete(waiter);
          clearTimeout(timer);
          clearInterval(poll);
          resolve();
        },
        fail: (error: Error): void => {
          this.waiters.delete(waiter);
          clearTimeout(timer);
          clearInterval(poll);
          reject(error);
        },
      };
      const timer = setTimeout(
        () => waiter.fail(new Error(`Timed out after ${timeoutMs} ms: ${describe()}`)),
        timeoutMs,
      );
      timer.unref();
      const poll = pollMs > 0 ? setInterval(() => waiter.check(), pollMs) : undefined;
      poll?.unref();
      this.waiters.add(waiter);
    });
  }

  /** Rejects every pending wait, e.g. when the stand-in closes. */
  cancelAll(reason: string): void {
    for (const waiter of [...this.waiters]) waiter.fail(new Error(reason));
  }
}

/** A Map that forgets its oldest entries beyond `limit`: O(1) per insert. */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (!this.has(key) && this.size >= this.limit) {
      const oldest = this.keys().next();
      if (!oldest.done) this.delete(oldest.value);
    }
    return super.set(key, value);
  }
}

/**
 * Appends to a log that keeps the newest `limit` entries. Trimming happens in batches of a quarter
 * of the limit so each append stays O(1) amortized; the array itself is kept (callers hold it).
 */
export function appendBounded<T>(log: T[], entry: T, limit: number): void {
  log.push(entry);
  if (log.length > limit + Math.max(1, limit >> 2)) log.splice(0, log.length - limit);
}
