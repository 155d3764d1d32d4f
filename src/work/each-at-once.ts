/**
 * `work` for each of `items` in order, at most `atOnce` running at a time; none starts once
 * `stopped()` says so. A failing item rejects the whole, as Promise.all does.
 */
export async function eachAtOnce<T>(
  items: readonly T[],
  atOnce: number,
  work: (item: T) => Promise<void>,
  stopped: () => boolean = () => false,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !stopped()) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: atOnce }, worker));
}
