import type { VoteSite } from '../store/index.js';

/**
 * Where a vote goes once the store holds it, whichever way it came: a webhook delivery
 * (runtime/event-route.ts), a poll or a refresh of the mirror, a `/vote` answer. One server's
 * implementation, runtime/server-votes.ts, names what acts on it: the vote channel's lane, milestone
 * roles, the streaks in memory and the expiry schedule (voter role, reminders).
 */
export interface VoteSink {
  /** Votes were accepted (a delivery or a poll): the vote channel announces them; milestones and streaks look again. */
  accepted(): void;
  /**
   * A delivered vote was new and its period runs until `periodEndsAt`: streaks are read again, the
   * schedule acts on it. `site` is the list it was cast on (Guilds when not given): another list's
   * vote gives the voter role even while the member's end is already later.
   */
  newVote(userId: string, periodEndsAt: number, site?: VoteSite): Promise<void>;
  /** A running vote was seen by a poll or a refresh, with when it ends: the schedule acts on it. */
  running(userId: string, endsAt: number): Promise<void>;
  /** A running vote a `/vote` answer showed (nobody waits on it). */
  seen(userId: string, endsAt: number): Promise<void>;
  /** The votes a poll listed as running, all at once. */
  polled(running: ReadonlyArray<{ userId: string; endsAt: number }>): Promise<void>;
}
