/**
 * A figure an e2e drill measured, printed on a line of its own so that `npm run bench:drills`, which
 * runs the same test at full size, can put it in RESULTS.md. Tests still assert on the value.
 */
export const DRILL_FIGURE_PREFIX = 'drill figure: ';

export function drillFigure(figure: string, value: string | number): void {
  process.stdout.write(`${DRILL_FIGURE_PREFIX}${figure} = ${value}\n`);
}

/** A drill's size: the suite's default, or the full size `npm run bench:drills` sets in the environment. */
export function drillSize(variable: string, suite: number): number {
  const value = Number(process.env[variable]);
  return Number.isFinite(value) && value > 0 ? value : suite;
}
