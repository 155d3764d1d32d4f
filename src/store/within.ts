import { settleWithin } from '../work/settle-within.js';

/** The store failed a call a member was waiting on: they are told to try again shortly. */
export class StoreUnavailable extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StoreUnavailable';
  }
}

/** A store call that did not settle within its deadline. */
class StoreTimeout extends StoreUnavailable {
  constructor(readonly ms: number) {
    super(`the store did not answer within ${ms} ms`);
    this.name = 'StoreTimeout';
  }
}

/**
 * The store call's result, or a StoreTimeout once `ms` have passed. The call itself runs on (a
 * store offers no way to cancel it); whatever it ends with later is absorbed here, never unhandled.
 */
export function storeWithin<T>(work: Promise<T>, ms: number): Promise<T> {
  return settleWithin(work, ms, () => {
    throw new StoreTimeout(ms);
  });
}

/** An interaction waits this long for the store, then answers without it (or says to try again). */
export const INTERACTION_STORE_MS = 800;

/**
 * The given methods of a store, each given up on after `ms` (a StoreTimeout) and any failure a
 * StoreUnavailable: what a member waits on must leave time to answer inside Discord's 3 s, whatever
 * the database is doing.
 */
export function storeWithDeadline<T extends object, K extends keyof T>(
  store: T,
  keys: readonly K[],
  ms = INTERACTION_STORE_MS,
): Pick<T, K> {
  const timed: Partial<Record<K, unknown>> = {};
  for (const key of keys) {
    const method = store[key] as (...args: unknown[]) => Promise<unknown>;
    timed[key] = (...args: unknown[]) =>
      storeWithin(method.apply(store, args), ms).catch((error: unknown) => {
        throw error instanceof StoreUnavailable
          ? error
          : new StoreUnavailable(`the store failed: ${(error as Error)?.message ?? String(error)}`, { cause: error });
      });
  }
  return timed as Pick<T, K>;
}
