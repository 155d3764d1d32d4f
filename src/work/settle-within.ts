/**
 * `work`'s outcome, or `late()`'s once `ms` pass first: what `late` returns resolves, what it throws
 * rejects. One promise and one timer, cleared as soon as `work` settles. `work` itself runs on
 * (nothing here can cancel it); whatever it ends with later is absorbed, never unhandled.
 */
export function settleWithin<T, L>(work: Promise<T>, ms: number, late: () => L): Promise<T | L> {
  return new Promise<T | L>((resolve, reject) => {
    const timer = setTimeout(() => {
      try {
        resolve(late());
      } catch (error) {
        reject(error as Error);
      }
    }, ms);
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
