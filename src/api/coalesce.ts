import type { CallContext } from './attempts.js';
import { Deadline } from './deadline.js';
import type { ServiceUnavailableError } from './errors.js';

interface Flight<T> {
  promise: Promise<T>;
  deadline: Deadline;
  waiters: Set<Deadline>;
}

/**
 * Concurrent identical GETs share one request (a burst of members pressing the same button costs
 * one call). The shared request runs on its own budget; each caller's deadline only ends that
 * caller's wait. When the last caller stops waiting, the request is stopped too.
 */
export class Coalescer {
  private readonly flights = new Map<string, Flight<unknown>>();

  /** True when a request for `key` is in flight, so joining it sends nothing. */
  has(key: string): boolean {
    return this.flights.has(key);
  }

  /**
   * Waits for the request under `key`, starting it with `start` when none is in flight. The wait
   * owns `caller` from here: its deadline is released when the wait ends.
   */
  run<T>(key: string, caller: Deadline, budgetMs: number, start: (call: CallContext) => Promise<T>): Promise<T> {
    const existing = this.flights.get(key) as Flight<T> | undefined;
    return this.wait(key, existing ?? this.launch(key, budgetMs, start, caller), caller);
  }

  private launch<T>(
    key: string,
    budgetMs: number,
    start: (call: CallContext) => Promise<T>,
    first: Deadline,
  ): Flight<T> {
    const deadline = new Deadline(budgetMs);
    // The first caller counts from the start: the request's remaining time is read right away.
    const waiters = new Set<Deadline>([first]);
    // A Retry-After is worth waiting out only while someone still waits: the latest caller bounds it.
    const remaining = () => {
      let latest = 0;
      for (const waiter of waiters) latest = Math.max(latest, waiter.remaining());
      return Math.min(deadline.remaining(), latest);
    };
    const flight: Flight<T> = { deadline, waiters, promise: Promise.resolve() as Promise<T> };
    flight.promise = start({ signal: deadline.signal, remaining }).finally(() => {
      deadline.dispose();
      this.forget(key, flight);
    });
    this.flights.set(key, flight);
    return flight;
  }

  private wait<T>(key: string, flight: Flight<T>, caller: Deadline): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const leave = () => {
        flight.waiters.delete(caller);
        caller.signal.removeEventListener('abort', giveUp);
        caller.dispose();
      };
      const giveUp = () => {
        leave();
        reject(caller.signal.reason as ServiceUnavailableError);
        if (flight.waiters.size === 0) {
          // Nobody is left to use the answer: stop the request, for the last caller's reason (a
          // timeout still counts against the service), and let the next caller start afresh.
          this.forget(key, flight);
          flight.deadline.abort(caller.signal.reason as ServiceUnavailableError);
        }
      };
      flight.waiters.add(caller);
      if (caller.signal.aborted) return giveUp();
      caller.signal.addEventListener('abort', giveUp, { once: true });
      flight.promise.then(
        (value) => {
          leave();
          resolve(value);
        },
        (error: unknown) => {
          leave();
          reject(error as Error);
        },
      );
    });
  }

  private forget(key: string, flight: Flight<unknown>): void {
    if (this.flights.get(key) === flight) this.flights.delete(key);
  }
}
