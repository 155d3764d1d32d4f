import type { Lanes } from '../feeds/lanes.js';
import type { VoteSink } from '../mirror/vote-sink.js';
import type { ListReminders } from '../reminders/list-reminders.js';
import type { MilestoneRoles } from '../roles/milestone-roles.js';
import type { ExpirySchedule } from '../schedule/expiry-schedule.js';
import { GUILDS_SITE, type VoteSite } from '../store/index.js';
import type { StreakIndex } from './streak-index.js';

export interface ServerVotesTargets {
  lanes: Pick<Lanes, 'wakeVotes'>;
  milestones: Pick<MilestoneRoles, 'wake'>;
  streaks: Pick<StreakIndex, 'changed'>;
  schedule: Pick<ExpirySchedule, 'voteKnown' | 'listVoteRecorded' | 'voteSeen' | 'votesKnown'>;
  /** Reminders per list: a recorded vote's end may be the next one due. */
  reminders?: Pick<ListReminders, 'voteRecorded'>;
  /** The process's forwarding worker: the ledger stored the votes' deliveries with them. */
  forwards?: { wake(): void } | undefined;
}

/**
 * One server's VoteSink: the work a recorded vote wakes, written once for deliveries and polls alike.
 * A class, not an object of five arrow functions: a process holds one for every server it runs.
 */
export class ServerVotes implements VoteSink {
  constructor(private readonly targets: ServerVotesTargets) {}

  // A recorded vote (a webhook's or one the poll found) may reach a milestone and change a streak.
  accepted(): void {
    const { streaks, lanes, milestones, forwards } = this.targets;
    streaks.changed();
    lanes.wakeVotes();
    milestones.wake();
    forwards?.wake();
  }

  // A recorded vote makes the streaks in memory be read again (periods a refresh moves: within a minute).
  newVote(userId: string, periodEndsAt: number, site: VoteSite = GUILDS_SITE): Promise<void> {
    const { streaks, reminders, schedule } = this.targets;
    streaks.changed();
    reminders?.voteRecorded(periodEndsAt);
    // The store moved the member's end as it recorded another list's vote: the schedule offers it anyway.
    return site === GUILDS_SITE
      ? schedule.voteKnown(userId, periodEndsAt)
      : schedule.listVoteRecorded(userId, periodEndsAt);
  }

  running(userId: string, endsAt: number): Promise<void> {
    return this.targets.schedule.voteKnown(userId, endsAt);
  }

  seen(userId: string, endsAt: number): Promise<void> {
    return this.targets.schedule.voteSeen(userId, endsAt);
  }

  polled(running: ReadonlyArray<{ userId: string; endsAt: number }>): Promise<void> {
    return this.targets.schedule.votesKnown(running);
  }
}
