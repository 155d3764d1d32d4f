import type {
  FeedAnswer,
  FeedEdit,
  LedgerVote,
  MemberTotals,
  FeedPost,
  FeedReview,
  MemberStreak,
  MemberVotesBySite,
  Milestone,
  MilestoneGrant,
  MirrorEntry,
  CountMark,
  MirrorTotals,
  PolledMirror,
  NewVote,
  OutgoingPost,
  ParkedLane,
  PendingAnnouncement,
  PollRecord,
  ReminderOptIn,
  ReminderOutcome,
  ReminderRecord,
  RunningListVote,
  ScheduledExpiry,
  UnansweredPage,
  VoteSite,
} from './types.js';
import type { DeliveryRecord } from './root-types.js';

// The store's ports, each what one kind of row holds: a module takes the ports (or the methods of
// them) it uses, never the whole store; only the entry points in src/processes hold it all.

/** Reviews no one can answer through the bot (a list's), which leave /reviews pending after a while. */
export interface AgedReviews {
  /** Review ids starting with one of these (plain letters and ':', no LIKE wildcards). */
  idPrefixes: readonly string[];
  receivedBefore: number;
}

export interface ReviewFeedStore {
  feedPost(reviewId: string): Promise<FeedPost | undefined>;
  /** Stores a review for the feed; false when it is known already. An answer that came first is applied. */
  queueReview(review: Omit<FeedReview, 'answer'>): Promise<boolean>;
  /**
   * Records the answer (the first one stands). Returns the channel whose message must be redrawn,
   * null when there is nothing to redraw (not posted yet, or answered already), or 'kept' when the
   * review is not known yet: the answer waits for it.
   */
  recordAnswer(reviewId: string, answer: FeedAnswer): Promise<string | null | 'kept'>;
  /** The service no longer has the review (404 to a reply): out of the inbox; false when it was not waiting there. */
  reviewGone(reviewId: string, at: number): Promise<boolean>;
  /** Reviews in no post yet, oldest first. */
  waitingReviews(limit: number): Promise<FeedReview[]>;
  /**
   * Reviews the bot has seen that have no reply yet, oldest first, `limit` from `offset`, and how many
   * there are; leaving out those `aged` names: an id starting with one of its prefixes, received before it.
   */
  unansweredReviews(limit: number, offset: number, aged?: AgedReviews): Promise<UnansweredPage>;
}

/**
 * Work on its way to Discord, kept so that a passing outage loses nothing and a crash sends
 * nothing twice: messages claimed but not yet sent, feed messages to redraw, channels Discord refuses.
 */
export interface OutboxStore {
  /**
   * Claims the items (vote ids or review ids) for a new post in `channelId`; returns its id.
   * Throws when one of them was claimed meanwhile, changing nothing.
   */
  createPost(post: Omit<OutgoingPost, 'id'>, items: readonly number[] | readonly string[]): Promise<number>;
  /** Claimed posts not sent yet and not parked, oldest first. */
  unsentPosts(channelId: string, limit: number): Promise<OutgoingPost[]>;
  /** Discord has the message: the votes are announced, the reviews show it; the post is done. Returns what it held. */
  postSent(postId: number, messageId: string, at: number): Promise<{ reviewIds: string[]; votes: number }>;
  /** Discord will never take this body: kept aside with the reason, the lane goes on. */
  parkPost(postId: number, reason: string): Promise<void>;
  /** Feed messages in the channel with an answer they do not show yet. */
  dueEdits(channelId: string, limit: number): Promise<FeedEdit[]>;
  /** The redraw went out: the answers it showed are done (a newer one keeps its due mark). */
  editDone(edit: FeedEdit): Promise<void>;
  /** True when the lane was not parked before (so it is reported once). */
  parkLane(lane: ParkedLane): Promise<boolean>;
  /** True when it was parked. */
  unparkLane(channelId: string): Promise<boolean>;
  parkedLane(channelId: string): Promise<ParkedLane | undefined>;
  /** Every channel of the server parked now. */
  parkedLanes(): Promise<ParkedLane[]>;
}

/**
 * The votes the bot recorded, on every list the server is on: one per member per list per vote
 * period, and whether each is announced. What counts sums each vote's weight across the lists.
 */
export interface VoteLedger {
  /**
   * Records the vote and queues its announcement unless it repeats one already recorded: the same
   * list's id for it, or (the list gives none) a vote of the member on the same list in a period
   * still running at `vote.at`, or within its dedupe window. A vote on another list is a new one. On
   * Guilds a delivery ('webhook') takes over a vote the first poll found ('seed'), which is then
   * announced and counted. Returns whether it was new.
   */
  acceptVote(vote: NewVote): Promise<boolean>;
  /**
   * acceptVote for many members at once (a poll's list: one transaction, a few statements). Returns
   * the members whose vote was new.
   */
  acceptVotes(votes: readonly NewVote[]): Promise<string[]>;
  /** Members with a vote still running at `at` (on `site`, or on any list), with its latest end. */
  runningVotes(at: number, site?: VoteSite): Promise<Map<string, number>>;
  /** The member's running vote on each list at `at`, for /vote's line per list; first voted first. */
  runningVotesOf(userId: string, at: number): Promise<RunningListVote[]>;
  /** Moves the end of the member's current period on `site` (Guilds': its expiry is known later). */
  setPeriodEnd(userId: string, at: number, periodEndsAt: number, site?: VoteSite): Promise<void>;
  /** setPeriodEnd for many members on Guilds at once (a poll's list): a statement, not one per member. */
  setPeriodEnds(ends: ReadonlyArray<{ userId: string; periodEndsAt: number }>, at: number): Promise<void>;
  /**
   * Members whose delivered Guilds vote still runs on the assumed period (`periodMs` from its
   * arrival): the service was never asked when it really ends, as when the process stopped before
   * the refresh.
   */
  unconfirmedVoters(now: number, periodMs: number): Promise<string[]>;
  /** Accepted votes in no post yet, oldest first. */
  waitingVotes(limit: number): Promise<PendingAnnouncement[]>;
  /** Votes that will never be announced (no vote channel): done, with no message. */
  markAnnounced(ids: readonly number[], messageId: string | null, at: number): Promise<void>;
  /** When the store was created: the bot has been recording votes since then. */
  countingSince(): Promise<number>;
  /**
   * Votes recorded in [from, to) by weight (a double counting as two), on every list or on `site`
   * only, for the leaderboard.
   */
  votesBetween(from: number, to: number, site?: VoteSite): Promise<Array<{ userId: string; votes: number }>>;
}

/** The ledger as the vote API reads it (sql-vote-feed.ts); votes the first poll found are never in it. */
export interface VoteFeedStore {
  /** Up to `limit` votes cast at or after `since` that the ledger took after the vote `afterId`, in its order. */
  ledgerPage(since: number, afterId: number, limit: number): Promise<LedgerVote[]>;
  /** The member's votes by weight up to `at`: since `monthStart`, and ever. */
  memberTotals(userId: string, monthStart: number, at: number): Promise<MemberTotals>;
}

/** The counts split by the list each vote was cast on, for the leaderboard and /stats. */
export interface SiteBreakdownStore {
  /** votesBetween on every list, with what each list gave each member. */
  votesBetweenBySite(from: number, to: number): Promise<MemberVotesBySite[]>;
  /** votesPerDay for each list with votes in the range, for /stats to stack them. */
  votesPerDayBySite(from: number, days: number): Promise<Record<VoteSite, number[]>>;
  /** Votes recorded in [from, to) by weight, for each list with any: the counts' sums (vote-counts.ts). */
  votesBySite(from: number, to: number): Promise<Record<VoteSite, number>>;
}

/** The streak each recorded vote made. */
export interface StreakStore {
  /** The member's streak at `now`: 0 when their last period ran out more than `graceMs` ago, or they never voted. */
  streakOf(userId: string, now: number, graceMs: number): Promise<number>;
  /** Each member's latest vote among those whose period ends at or after `since`: its streak and period end. */
  latestStreaks(since: number): Promise<Array<MemberStreak & { periodEndsAt: number }>>;
}

/** Counts over the recorded votes and reviews, for /stats. */
export interface StatsStore {
  /** Votes recorded on each of `days` UTC days from `from` (a day's start), counted as votesBetween counts them. */
  votesPerDay(from: number, days: number): Promise<number[]>;
  /** How many reviews the bot has seen at each rating, as the deliveries gave it. */
  ratingCounts(): Promise<Array<{ rating: number; reviews: number }>>;
}

/** The service's vote list as the last poll (and each refresh since) saw it, and how that poll went. */
export interface MirrorStore {
  /**
   * A poll's mirror, totals and outcome in one write (one statement where the backend allows).
   * Returns whether an earlier poll's totals were stored: the very first poll only seeds.
   */
  savePoll(polled: PolledMirror): Promise<{ polledBefore: boolean }>;
  /** One member's vote as a refresh saw it; null removes it. */
  setMirrorEntry(userId: string, entry: MirrorEntry | null): Promise<void>;
  mirrorEntry(userId: string): Promise<MirrorEntry | undefined>;
  /** All mirrored votes, for the reconcile pass. */
  mirrorEntries(): Promise<MirrorEntry[]>;
  mirrorTotals(): Promise<MirrorTotals | undefined>;
  /** The highest Guilds counts shown (store/vote-counts.ts), and raising them. */
  countMark(): Promise<CountMark | undefined>;
  setCountMark(mark: CountMark): Promise<void>;
  recordPoll(poll: PollRecord): Promise<void>;
  lastPoll(): Promise<PollRecord | undefined>;
}

/** What came in from the service's webhooks for the server, as /setup shows it. */
export interface DeliveryHistoryStore {
  /** When the last webhook delivery for this server was accepted; undefined before the first. */
  lastDeliveryAt(): Promise<number | undefined>;
  /** The server's newest `limit` delivery log lines of each window (delivery-windows.ts), newest first. */
  recentDeliveries(limit: number): Promise<DeliveryRecord[]>;
}

/**
 * When each member's running vote ends, kept until what that end triggers has been done: the latest
 * end over every list the member voted on. An end written here (Guilds') never brings it before a
 * running vote on another list ends; a vote recorded on another list moves it later, never earlier.
 */
export interface ExpiryStore {
  /** Records (or moves) when the member's running vote ends. */
  scheduleExpiry(userId: string, endsAt: number): Promise<void>;
  /** scheduleExpiry, returning the end it replaced (undefined when none was scheduled). */
  rescheduleExpiry(userId: string, endsAt: number): Promise<number | undefined>;
  /** scheduleExpiry for many members in a few statements. */
  scheduleExpiries(ends: readonly ScheduledExpiry[]): Promise<void>;
  /**
   * scheduleExpiries, returning the ends it replaced by member (none: nothing was scheduled): on
   * PostgreSQL a statement per 200 members, where scheduledExpiriesOf then scheduleExpiries are two.
   */
  rescheduleExpiries(ends: readonly ScheduledExpiry[]): Promise<Map<string, number>>;
  /** Removes the entry if it still ends at `endsAt`: a vote that moved it meanwhile keeps it. */
  clearExpiry(userId: string, endsAt: number): Promise<void>;
  scheduledExpiry(userId: string): Promise<ScheduledExpiry | undefined>;
  /** Every scheduled end of the server, by member: one read for a whole reconcile pass. */
  scheduledExpiries(): Promise<Map<string, number>>;
  /** The scheduled ends of these members (those with one), in a few reads. */
  scheduledExpiriesOf(userIds: readonly string[]): Promise<Map<string, number>>;
}

/** Who asked to be reminded, and the latest reminder each got. */
export interface ReminderStore {
  /** Turns reminders on for the member (again: the locale is updated, the date kept). */
  optInReminders(userId: string, locale: string, at: number): Promise<void>;
  /** Turns them off; false when they were not on. */
  optOutReminders(userId: string): Promise<boolean>;
  reminderOptIn(userId: string): Promise<ReminderOptIn | undefined>;
  /**
   * Claims the reminder for the vote period on `site` (Guilds when not given) ending at `endsAt`
   * (outcome 'pending'). False when the member's latest reminder for that list ends at or after
   * `notBefore`: that period was reminded already.
   */
  claimReminder(userId: string, endsAt: number, at: number, notBefore: number, site?: VoteSite): Promise<boolean>;
  /** Records how the claimed reminder went. */
  settleReminder(
    userId: string,
    endsAt: number,
    outcome: Exclude<ReminderOutcome, 'pending'>,
    site?: VoteSite,
  ): Promise<void>;
  /** Gives a claim back after a failure that is worth trying again. */
  releaseReminder(userId: string, endsAt: number, site?: VoteSite): Promise<void>;
  /** The member's latest reminder, whichever list it was for. */
  lastReminder(userId: string): Promise<ReminderRecord | undefined>;
}

/** The server's vote milestones and the milestone roles the bot gave. */
export interface MilestoneStore {
  /** The server's milestones, by votes then role. */
  milestones(): Promise<Milestone[]>;
  /** Adds the role's milestone or replaces it (unparked: the admin may have fixed the role). */
  setMilestone(milestone: Omit<Milestone, 'parked'>): Promise<void>;
  /** Forgets the role's milestone and who got it from it; false when there was none. */
  removeMilestone(roleId: string): Promise<boolean>;
  /** True when it was not parked before (so the refusal is reported once). */
  parkMilestone(roleId: string, reason: string): Promise<boolean>;
  /** True when it was parked. */
  unparkMilestone(roleId: string): Promise<boolean>;
  milestoneGrants(): Promise<MilestoneGrant[]>;
  recordMilestoneGrant(grant: MilestoneGrant): Promise<void>;
  /** Forgets the grant if it is still for `month`: one made for a later month meanwhile stays. */
  dropMilestoneGrant(roleId: string, userId: string, month: string): Promise<void>;
}

/**
 * Everything that must survive a restart, for one server: every port above. SQLite and PostgreSQL
 * implement it with the same SQL, and the same test suite runs against both.
 */
export interface Store
  extends
    ReviewFeedStore,
    OutboxStore,
    VoteLedger,
    VoteFeedStore,
    SiteBreakdownStore,
    StreakStore,
    StatsStore,
    MirrorStore,
    DeliveryHistoryStore,
    ExpiryStore,
    ReminderStore,
    MilestoneStore {
  /** The server every row this store reads or writes belongs to. */
  readonly guildId: string;
  readonly backend: 'sqlite' | 'postgres';
  readonly driver: 'node:sqlite' | 'better-sqlite3' | 'pg';
}
