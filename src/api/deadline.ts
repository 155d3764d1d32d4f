import { ServiceUnavailableError } from './errors.js';

/**
 * A call's time budget and its caller's signal, as one AbortSignal. The signal's reason is always
 * a ServiceUnavailableError ('timeout' or 'aborted'), so whatever is cut short by it (a fetch, a
 * backoff sleep) can rethrow the reason as the call's typed error.
 */
export class Deadline {
  private readonly controller = new AbortController();
  private readonly endsAt: number;
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly parent: AbortSignal | undefined;
  // Made only with a parent: most calls have none, and every GET makes two deadlines.
  private readonly onParentAbort: (() => void) | undefined;

  constructor(budgetMs: number, parent?: AbortSignal) {
    this.endsAt = performance.now() + budgetMs;
    if (parent) {
      this.onParentAbort = () =>
        this.abort(new ServiceUnavailableError('aborted', 'The call was cancelled by its caller.'));
      if (parent.aborted) {
        this.onParentAbort();
        return;
      }
      this.parent = parent;
      parent.addEventListener('abort', this.onParentAbort, { once: true });
    }
    if (budgetMs <= 0) expire(this, budgetMs);
    else {
      this.timer = setTimeout(expire, budgetMs, this, budgetMs);
      // A pending budget must never keep the process alive on shutdown.
      this.timer.unref();
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Milliseconds left; 0 once the deadline has passed or was aborted. */
  remaining(): number {
    return this.controller.signal.aborted ? 0 : Math.max(0, this.endsAt - performance.now());
  }

  abort(reason: ServiceUnavailableError): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
    this.dispose();
  }

  /** Releases the timer and the parent listener; the signal keeps its state. */
  dispose(): void {
    clearTimeout(this.timer);
    if (this.onParentAbort) this.parent?.removeEventListener('abort', this.onParentAbort);
  }
}

function expire(deadline: Deadline, budgetMs: number): void {
  deadline.abort(new ServiceUnavailableError('timeout', `The service did not answer within ${budgetMs} ms.`));
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
