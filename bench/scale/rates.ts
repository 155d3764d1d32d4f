/** Events per whole second of a span, from their times in ms (any clock): the busiest second and the mean. */
export function perSecond(times: readonly number[], fromMs: number, toMs: number): { busiest: number; mean: number } {
  const seconds = Math.floor((toMs - fromMs) / 1000);
  if (seconds < 1) return { busiest: Number.NaN, mean: Number.NaN };
  const counts = new Array<number>(seconds).fill(0);
  for (const at of times) {
    const second = Math.floor((at - fromMs) / 1000);
    if (second >= 0 && second < seconds) counts[second]! += 1;
  }
  return { busiest: Math.max(...counts), mean: counts.reduce((a, b) => a + b, 0) / seconds };
}

/** The most events inside any one-second span (not only whole seconds from a given start). */
export function busiestSlidingSecond(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let first = 0, last = 0; last < sorted.length; last++) {
    while (sorted[last]! - sorted[first]! >= 1000) first++;
    best = Math.max(best, last - first + 1);
  }
  return best;
}
