/** One of the member's recorded votes, on any list, as the merged streak reads it. */
export interface TimelineVote {
  streak: number;
  votedAt: number;
  periodEndsAt: number;
}

/**
 * The streak a vote at `at` makes, whatever lists the member votes on: one more than the previous
 * vote's when it came before that vote's period ran out plus the grace window, else a new streak of 1,
 * applied to all their votes as one timeline. The streak is alive while any vote is (running, or ran
 * out at most the grace ago). A vote cast while every alive vote of the streak's latest step still
 * runs belongs to that step (Guilds and Top.gg the same morning count once); a vote once one of them
 * has run out (that list can be voted on again) adds one; with none alive it starts again at 1.
 *
 * `recent` holds the member's votes whose period ended at most `grace` before `at` (older ones
 * cannot matter), in the order they were recorded.
 */
export function streakOnTimeline(recent: readonly TimelineVote[], at: number, grace: number): number {
  const alive = recent.filter((vote) => at <= vote.periodEndsAt + grace);
  if (alive.length === 0) return 1;
  // The streak only grows along a timeline: the latest vote holds the current step's.
  let latest = alive[0]!;
  for (const vote of alive) if (vote.votedAt >= latest.votedAt) latest = vote;
  const stepEndsAt = Math.min(...alive.filter((vote) => vote.streak === latest.streak).map((v) => v.periodEndsAt));
  // A vote still alive keeps the streak going even when the step's first end is past its grace.
  return at < stepEndsAt ? latest.streak : latest.streak + 1;
}
