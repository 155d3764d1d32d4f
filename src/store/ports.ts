import type { ShardSet } from '../shards/ownership.js';
import type {
  DeliveryRecord,
  DueExpiryOf,
  DueListReminderOf,
  SweepCursor,
  WaitingWork,
  FeedAnswer,
  FeedEdit,
  FeedPost,
  FeedReview,
  ListingActivity,
  ListingRecord,
  MemberStreak,
  MemberVotesBySite,
  Milestone,
  MilestoneGrant,
  MirrorEntry,
  CountMark,
  MirrorTotals,
  PolledMirror,
  NewEvent,
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
  SealedKeyUse,
  ServerRecord,
  StoredEvent,
  UnansweredPage,
  VoteSite,
  WorkCounts,
} from './types.js';

// The store's ports, each what one kind of row holds: a module takes the ports (or the methods of
// them) it uses, never the whole store; only the entry points in src/processes hold it all.

/** The reviews the bot received, with their answers (one that came first waits for its review). */
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

/** The webhook inbox: every server's accepted deliveries, until each has been handled. */
export interface EventStore {
  addEvent(guildId: string, kind: string, payload: unknown, receivedAt: number): Promise<number>;
  /** addEvent for many deliveries in one statement (one commit); their ids, in the order given. */
  addEvents(events: readonly NewEvent[]): Promise<number[]>;
  /** Unhandled events due by `now` (all of them without it), oldest first; only servers on `shards` if given. */
  pendingEvents(limit: number, now?: number, shards?: ShardSet): Promise<StoredEvent[]>;
  markEventHandled(id: number, at: number): Promise<void>;
  /** markEventHandled for a drained batch, in one statement. */
  markEventsHandled(ids: readonly number[], at: number): Promise<void>;
  /** Handling failed: the event waits until `nextAt`, then is tried again. */
  deferEvent(id: number, attempts: number, nextAt: number): Promise<void>;
  /** When the soonest deferred event is due, if any is waiting (of servers on `shards` if given). */
  nextEventDue(shards?: ShardSet): Promise<number | undefined>;
  /**
   * Deletes up to `limit` events handled before `before`, oldest handled first (of servers on
   * `shards` if given); never an unhandled one, nor a server's newest (its last delivery's time).
   * How many went.
   */
  dropHandledEvents(before: number, limit: number, shards?: ShardSet): Promise<number>;
}

/** The delivery log's writer, for every server at once. */
export interface DeliveryLogStore {
  /** Appends to the delivery log, then keeps only each touched server's newest `keep` lines of each window. */
  recordDeliveries(entries: readonly DeliveryRecord[], keep: number): Promise<void>;
}

/** The servers the bot serves or served: their settings and sealed secrets. */
export interface ServerRecordStore {
  server(guildId: string): Promise<ServerRecord | undefined>;
  /** Every server known, the ones the bot left included. */
  servers(): Promise<ServerRecord[]>;
  /** Servers that take webhook deliveries: set up (credentials, and a webhook token or a listing) and not left. Ids only. */
  webhookServerIds(): Promise<string[]>;
  saveServer(record: ServerRecord): Promise<void>;
  /** Deletes the server and every row it has. */
  forgetServer(guildId: string): Promise<void>;
  /** Gives rows written before servers existed (a single-server store) to this server; returns how many. */
  adoptUnowned(guildId: string): Promise<number>;
  /** Which keys sealed the stored secrets, read from the values' heads only (one pass, no secret read whole). */
  sealedKeyUses(): Promise<SealedKeyUse[]>;
}

/** The lists besides Guilds each server takes votes from, with their sealed secrets. */
export interface ListingStore {
  /** Every server's listings, or one server's. */
  listings(guildId?: string): Promise<ListingRecord[]>;
  /**
   * Adds the listing, or replaces its secret and settings. Its last delivery and test are written
   * by listingDelivered alone; a record with neither (a new secret) starts them afresh.
   */
  saveListing(record: ListingRecord): Promise<void>;
  /** Whether there was one to remove. */
  removeListing(guildId: string, site: string): Promise<boolean>;
  /**
   * A delivery from the list was handled at `at`; a test one is also its last test. Kept for a
   * list with no row too: single-server mode's, set by LISTING_<SITE>_SECRET.
   */
  listingDelivered(guildId: string, site: string, at: number, test: boolean): Promise<void>;
  /** The server's last delivery and test per site, rows or not. */
  listingActivity(guildId: string): Promise<ListingActivity[]>;
  /** Sealed secrets replaced in place (rotate-secrets), keeping everything else. */
  resealListings(records: readonly Pick<ListingRecord, 'guildId' | 'site' | 'secret'>[]): Promise<void>;
}

/**
 * What a process's passes read over every server at once (sql-sweeps.ts): due vote ends and
 * reminders, which servers have milestones, which channels have work waiting.
 */
export interface SweepStore {
  /** Due vote ends of every server, oldest first, after `after` (a page's last row). */
  dueExpiriesAll(now: number, after: SweepCursor | undefined, limit: number): Promise<DueExpiryOf[]>;
  /** The next vote end after `now`, of any server. */
  nextExpiryAfter(now: number): Promise<number | undefined>;
  /**
   * Opted-in members' votes whose period ended in (after, upTo], of every server, soonest first,
   * after `cursor`, at most `limit`: every list's but Guilds', and a Guilds vote's only while a vote
   * on another list runs on past it (the expiry schedule reminds of Guilds' when its end is the
   * member's last). A list voted on again since is left out.
   */
  dueListRemindersAll(
    after: number,
    upTo: number,
    cursor: SweepCursor | undefined,
    limit: number,
  ): Promise<DueListReminderOf[]>;
  nextListReminderAfter(after: number): Promise<number | undefined>;
  serversWithMilestones(): Promise<Set<string>>;
  /** What each server with anything waiting has waiting for its channels; a server not in it has nothing. */
  workWaitingAll(): Promise<Map<string, WaitingWork>>;
  /** The channels of every server with a feed post due a redraw (an answer recorded, the post not redrawn yet). */
  dueRedrawsAll(): Promise<Array<{ guildId: string; channelId: string }>>;
}

/** The dashboard's ended sign-ins (sql-sign-outs.ts): a signed-out cookie stays refused until it expires. */
export interface SignOutStore {
  /** Records a sign-in ended; rows past their `until` go at the same time. */
  endSignIn(sid: string, userId: string, until: number, now: number): Promise<void>;
  /** The sign-ins ended that would still be open at `now`: sid → until. */
  signOuts(now: number): Promise<Map<string, number>>;
}

/** Interactions answered over HTTP (sql-handled-interactions.ts): a replayed request runs nothing. */
export interface HandledInteractionStore {
  /** True when `id` is claimed here for the first time; false when it was handled before. */
  claimInteraction(guildId: string, id: string, until: number): Promise<boolean>;
  /** Drops the rows whose `until` has passed; returns how many went. */
  forgetHandledInteractions(now: number): Promise<number>;
}

/**
 * The store as a whole: the webhook inbox, the delivery log and the servers, for every server;
 * `forServer` gives one server's store, through which every other row is read and written.
 */
export interface StoreRoot
  extends
    EventStore,
    DeliveryLogStore,
    ServerRecordStore,
    ListingStore,
    SweepStore,
    SignOutStore,
    HandledInteractionStore {
  readonly backend: 'sqlite' | 'postgres';
  readonly driver: 'node:sqlite' | 'better-sqlite3' | 'pg';
  /** Highest migration applied. */
  schemaVersion(): Promise<number>;
  /** When the store was made: a single server's votes have been counted since then. */
  createdAt(): Promise<number>;
  forServer(guildId: string): Store;
  /** What waits and what is parked, over every server. */
  workCounts(): Promise<WorkCounts>;
  close(): Promise<void>;
}
