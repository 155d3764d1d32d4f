/** How long after a vote runs out a member may vote again and keep their streak, unless a server sets its own. */
export const DEFAULT_STREAK_GRACE_HOURS = 12;
/** A week: longer would make "in a row" mean little. */
export const STREAK_GRACE_HOURS_MAX = 168;

const HOUR = 3_600_000;

export function graceMs(hours: number | undefined): number {
  return (hours ?? DEFAULT_STREAK_GRACE_HOURS) * HOUR;
}
