/** A store call that did not settle within its deadline. */
export class StoreTimeout extends Error {
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
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new StoreTimeout(ms)), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
