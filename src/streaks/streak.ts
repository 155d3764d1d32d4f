/** How long after a vote runs out a member may vote again and keep their streak, unless a server sets its own. */
export const DEFAULT_STREAK_GRACE_HOURS = 12;
/** A week: longer would make "in a row" mean little. */
export const STREAK_GRACE_HOURS_MAX = 168;

const HOUR = 3_600_000;

export function graceMs(hours: number | undefined): number {
  return (hours ?? DEFAULT_STREAK_GRACE_HOURS) * HOUR;
}

/** The member's previous vote, as the streak reads it. */
export interface LastVote {
  streak: number;
  periodEndsAt: number;
}

/**
 * The streak a vote at `at` makes: one more than the previous vote's when it came before that
 * vote's period ran out plus the grace window, else a new streak of 1. The same rule rebuilds the
 * streaks of recorded votes in migration 7 (with the default grace).
 */
export function streakAfter(previous: LastVote | undefined, at: number, grace: number): number {
  return previous !== undefined && at <= previous.periodEndsAt + grace ? previous.streak + 1 : 1;
}
