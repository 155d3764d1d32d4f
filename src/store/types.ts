import type { ShardSet } from '../shards/ownership.js';
/** An accepted webhook delivery, kept until it has been handled (the outbox). */
export interface StoredEvent {
  id: number;
  /** The server the delivery was for. */
  guildId: string;
  kind: string;
  payload: unknown;
  receivedAt: number;
  /** Failed tries so far: the next one waits a backoff. */
  attempts: number;
}

/** A delivery to store in the inbox. */
export type NewEvent = Pick<StoredEvent, 'guildId' | 'kind' | 'payload' | 'receivedAt'>;

/**
 * What became of a webhook delivery: stored (new), duplicate (known already: Guilds delivers at least
 * once), refused for a wrong token, a malformed body, or another server's id in the body, ignored (a
 * kind the bot does not act on), or unavailable (the store did not take it in time: answered 503,
 * which Guilds retries).
 */
export type DeliveryOutcome =
  'stored' | 'duplicate' | 'wrong_token' | 'malformed' | 'wrong_server' | 'ignored' | 'unavailable';

/** One line of a server's delivery log: never a token or a body, only the event kind. */
export interface DeliveryRecord {
  guildId: string;
  at: number;
  /** vote, review, reply, or '?' when the body named no kind the bot knows (or could not be read). */
  event: string;
  outcome: DeliveryOutcome;
}

/** The latest poll of the service's vote list and how it went. */
export interface PollRecord {
  at: number;
  ok: boolean;
  /** The failure's error code (e.g. SERVICE_UNAVAILABLE) when it failed. */
  code?: string;
}

/** One page of the reviews no one has answered yet, oldest first. */
export interface UnansweredPage {
  reviews: FeedReview[];
  total: number;
}

/** A review the bot received, as the feed shows it. */
export interface FeedReview {
  reviewId: string;
  authorId: string;
  rating: number;
  content: string;
  receivedAt: number;
  answer: FeedAnswer | null;
}

/** A review and where the feed shows it: channel and message are null until it is posted. */
export interface FeedPost extends FeedReview {
  channelId: string | null;
  messageId: string | null;
}

export interface FeedAnswer {
  replyId: string | null;
  /** The moderator who answered through the bot; null when the reply came from elsewhere. */
  moderatorId: string | null;
  at: number;
}

/** A vote the bot accepted as new: once per member per vote period. */
export interface NewVote {
  userId: string;
  at: number;
  double: boolean;
  /**
   * What reported it: a webhook delivery, the poll (a delivery that never came), or the first poll
   * (votes cast before the bot listened: they mark the period, are never announced nor counted).
   */
  source: 'webhook' | 'poll' | 'seed';
  /** When this vote's period ends; a later vote before then is the same period. */
  periodEndsAt: number;
  /** How long after the previous period ran out this vote still continues the streak (the server's setting). */
  streakGraceMs?: number;
}

export interface PendingAnnouncement {
  id: number;
  userId: string;
  double: boolean;
  at: number;
  /** The streak this vote made. */
  streak: number;
  /** No earlier vote of the member is recorded: the first-vote template applies. */
  first: boolean;
  /** The member's recorded votes in the vote's calendar month (UTC) up to it, a double counting as two. */
  monthVotes: number;
  /** The member's recorded votes up to this one, a double counting as two. */
  totalVotes: number;
}

/** A member whose streak is still alive: their last period has not run out longer ago than the grace. */
export interface MemberStreak {
  userId: string;
  streak: number;
}

export interface MirrorEntry {
  userId: string;
  expiresAt: number;
  viaDiscord: boolean;
}

/** "The vote period of member M ends at T", kept until what it triggers has been done. */
export interface ScheduledExpiry {
  userId: string;
  endsAt: number;
}

/** A member who asked to be reminded when they can vote again. */
export interface ReminderOptIn {
  userId: string;
  /** The member's Discord language when they asked: reminders are written in it. */
  locale: string;
  since: number;
}

/** How a reminder went: claimed and on its way, by DM, as a mention in the fallback channel, only logged, or skipped as too late. */
export type ReminderOutcome = 'pending' | 'dm' | 'channel' | 'undelivered' | 'late';

/** The latest reminder a member got: for the vote period ending at `endsAt`. */
export interface ReminderRecord {
  userId: string;
  endsAt: number;
  at: number;
  outcome: ReminderOutcome;
}

export interface MirrorTotals {
  totalVotes: number;
  monthlyVotes: number;
  polledAt: number;
}

/** `month`: votes recorded in the calendar month (UTC), the role taken back when it ends; `all`: ever. */
export type MilestonePeriod = 'month' | 'all';

/** A role given to members who reach `votes` recorded votes in the period. */
export interface Milestone {
  roleId: string;
  votes: number;
  period: MilestonePeriod;
  createdAt: number;
  /** Why Discord refuses this role's changes ('access' or 'unknown'); null while they work. */
  parked: string | null;
}

/** A milestone role the bot gave a member; `month` is `2026-11` for a monthly one, '' for all time. */
export interface MilestoneGrant {
  roleId: string;
  userId: string;
  month: string;
  grantedAt: number;
}

/** What a message on its way to a channel holds. */
export type PostKind = 'votes' | 'reviews';

/** A message claimed for a channel, its REST body and nonce fixed before the first try. */
export interface OutgoingPost {
  id: number;
  channelId: string;
  kind: PostKind;
  body: unknown;
  nonce: string;
  createdAt: number;
}

/** A feed message to redraw: an answer came after it was drawn. */
export interface FeedEdit {
  channelId: string;
  messageId: string;
  /** Every review the message shows, in its order, with the answer count each had when read. */
  reviews: Array<FeedReview & { editDue: number }>;
}

/** A channel Discord refuses: parked until a probe succeeds. */
export interface ParkedLane {
  channelId: string;
  reason: string;
  code: number;
  parkedAt: number;
}

/** What waits and what is parked, for the metrics. */
export interface WorkCounts {
  events: number;
  votes: number;
  reviews: number;
  edits: number;
  parkedLanes: number;
  parkedPosts: number;
}

/**
 * Work on its way to Discord, kept so that a passing outage loses nothing and a crash sends
 * nothing twice: reviews waiting for the feed, answers to show, messages claimed but not yet sent.
 */
export interface OutboxStore {
  /** Stores a review for the feed; false when it is known already. An answer that came first is applied. */
  queueReview(review: Omit<FeedReview, 'answer'>): Promise<boolean>;
  /**
   * Records the answer (the first one stands). Returns the channel whose message must be redrawn,
   * null when there is nothing to redraw (not posted yet, or answered already), or 'kept' when the
   * review is not known yet: the answer waits for it.
   */
  recordAnswer(reviewId: string, answer: FeedAnswer): Promise<string | null | 'kept'>;
  /** Reviews in no post yet, oldest first. */
  waitingReviews(limit: number): Promise<FeedReview[]>;
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
  /** Channels with posts to send or messages to redraw. */
  /** Every channel of the server parked now. */
  parkedLanes(): Promise<ParkedLane[]>;
  lanesWithWork(): Promise<string[]>;
}

/** What a server has set with /setup (or the environment, for a single server); none of it secret. */
export interface ServerSettingsRecord {
  reviewChannelId?: string;
  voteChannelId?: string;
  auditChannelId?: string;
  reminderChannelId?: string;
  voterRoleId?: string;
  moderatorRoleIds?: string[];
  voteUrl?: string;
  /** The vote announcement as the server words it (src/announce/template.ts). */
  announceTemplate?: string;
  /** The announcement of a member's first recorded vote. */
  firstVoteTemplate?: string;
  /** `{user}` pings the voter (and nobody else); without it the mention shows but pings no one. */
  announcePing?: boolean;
  /** Hours after a vote runs out in which the next vote keeps the streak going. */
  streakGraceHours?: number;
}

/** A server the bot serves or served: its settings and its secrets, sealed (src/secrets). */
export interface ServerRecord {
  guildId: string;
  settings: ServerSettingsRecord;
  /** Sealed values only: the store never holds a secret in plain text. */
  sealed: { apiKey: string | null; appId: string | null; webhookToken: string | null };
  createdAt: number;
  updatedAt: number;
  /** When the bot left the server (its data goes 30 days later); null while it is in it. */
  leftAt: number | null;
}

/**
 * The store as a whole: the webhook inbox and the servers, for every server; `forServer` gives
 * one server's store, through which every other row is read and written.
 */
export interface StoreRoot {
  readonly backend: 'sqlite' | 'postgres';
  readonly driver: 'node:sqlite' | 'better-sqlite3' | 'pg';
  /** Highest migration applied. */
  schemaVersion(): Promise<number>;
  /** When the store was made: a single server's votes have been counted since then. */
  createdAt(): Promise<number>;
  forServer(guildId: string): Store;

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
  /** What waits and what is parked, over every server. */
  workCounts(): Promise<WorkCounts>;
  /** Appends to the delivery log, then keeps only each touched server's newest `keep` lines. */
  recordDeliveries(entries: readonly DeliveryRecord[], keep: number): Promise<void>;

  server(guildId: string): Promise<ServerRecord | undefined>;
  /** Every server known, the ones the bot left included. */
  servers(): Promise<ServerRecord[]>;
  saveServer(record: ServerRecord): Promise<void>;
  /** Deletes the server and every row it has. */
  forgetServer(guildId: string): Promise<void>;
  /** Gives rows written before servers existed (a single-server store) to this server; returns how many. */
  adoptUnowned(guildId: string): Promise<number>;

  close(): Promise<void>;
}

/**
 * Everything that must survive a restart, for one server. One interface; SQLite and PostgreSQL implement it with
 * the same SQL, and the same test suite runs against both.
 */
export interface Store extends OutboxStore {
  /** The server every row this store reads or writes belongs to. */
  readonly guildId: string;
  readonly backend: 'sqlite' | 'postgres';
  readonly driver: 'node:sqlite' | 'better-sqlite3' | 'pg';

  feedPost(reviewId: string): Promise<FeedPost | undefined>;

  /**
   * Records the vote and queues its announcement unless the member already has one in a period
   * that is still running at `vote.at`; a delivery ('webhook') takes over a vote the first poll
   * found ('seed'), which is then announced and counted. Returns whether it was new.
   */
  acceptVote(vote: NewVote): Promise<boolean>;
  /** Members whose vote period is still running at `at`, with its end. */
  runningVotes(at: number): Promise<Map<string, number>>;
  /**
   * acceptVote for many members at once (a poll's list: one transaction, a few statements). Returns
   * the members whose vote was new.
   */
  acceptVotes(votes: readonly NewVote[]): Promise<string[]>;
  /** Moves the end of the member's current period (the service's expiry is known later). */
  setPeriodEnd(userId: string, at: number, periodEndsAt: number): Promise<void>;
  /**
   * Members whose delivered vote still runs on the assumed period (`periodMs` from its arrival): the
   * service was never asked when it really ends, as when the process stopped before the refresh.
   */
  unconfirmedVoters(now: number, periodMs: number): Promise<string[]>;
  /** Accepted votes in no post yet, oldest first. */
  waitingVotes(limit: number): Promise<PendingAnnouncement[]>;
  /** Votes that will never be announced (no vote channel): done, with no message. */
  markAnnounced(ids: readonly number[], messageId: string | null, at: number): Promise<void>;
  /** When the store was created: the bot has been recording votes since then. */
  countingSince(): Promise<number>;
  /** Votes recorded in [from, to), a double counting as two, for the leaderboard. */
  votesBetween(from: number, to: number): Promise<Array<{ userId: string; votes: number }>>;
  /** The member's streak at `now`: 0 when their last period ran out more than `graceMs` ago, or they never voted. */
  streakOf(userId: string, now: number, graceMs: number): Promise<number>;
  /** Each member's latest vote among those whose period ends at or after `since`: its streak and period end. */
  latestStreaks(since: number): Promise<Array<MemberStreak & { periodEndsAt: number }>>;
  /** Votes recorded on each of `days` UTC days from `from` (a day's start), counted as votesBetween counts them. */
  votesPerDay(from: number, days: number): Promise<number[]>;
  /** How many reviews the bot has seen at each rating, as the deliveries gave it. */
  ratingCounts(): Promise<Array<{ rating: number; reviews: number }>>;

  /** Replaces the whole mirror with a poll's answer. */
  replaceMirror(entries: readonly MirrorEntry[], totals: MirrorTotals): Promise<void>;
  /** One member's vote as a refresh saw it; null removes it. */
  setMirrorEntry(userId: string, entry: MirrorEntry | null): Promise<void>;
  mirrorEntry(userId: string): Promise<MirrorEntry | undefined>;
  mirrorTotals(): Promise<MirrorTotals | undefined>;
  /** When the last webhook delivery for this server was accepted; undefined before the first. */
  lastDeliveryAt(): Promise<number | undefined>;

  /** The server's newest delivery log lines, newest first. */
  recentDeliveries(limit: number): Promise<DeliveryRecord[]>;
  recordPoll(poll: PollRecord): Promise<void>;
  lastPoll(): Promise<PollRecord | undefined>;
  /** Reviews the bot has seen that have no reply yet, oldest first, `limit` from `offset`, and how many there are. */
  unansweredReviews(limit: number, offset: number): Promise<UnansweredPage>;

  /** All mirrored votes, for the reconcile pass. */
  mirrorEntries(): Promise<MirrorEntry[]>;

  /** Records (or moves) when the member's running vote ends. */
  scheduleExpiry(userId: string, endsAt: number): Promise<void>;
  /** scheduleExpiry, returning the end it replaced (undefined when none was scheduled). */
  rescheduleExpiry(userId: string, endsAt: number): Promise<number | undefined>;
  /** scheduleExpiry for many members in a few statements. */
  scheduleExpiries(ends: readonly ScheduledExpiry[]): Promise<void>;
  /** Expiries due at `now`, soonest first. */
  dueExpiries(now: number, limit: number): Promise<ScheduledExpiry[]>;
  /** The soonest scheduled end, if any. */
  nextExpiryAt(): Promise<number | undefined>;
  /** Removes the entry if it still ends at `endsAt`: a vote that moved it meanwhile keeps it. */
  clearExpiry(userId: string, endsAt: number): Promise<void>;
  scheduledExpiry(userId: string): Promise<ScheduledExpiry | undefined>;
  /** Every scheduled end of the server, by member: one read for a whole reconcile pass. */
  scheduledExpiries(): Promise<Map<string, number>>;
  /** The scheduled ends of these members (those with one), in a few reads. */
  scheduledExpiriesOf(userIds: readonly string[]): Promise<Map<string, number>>;

  /** Turns reminders on for the member (again: the locale is updated, the date kept). */
  optInReminders(userId: string, locale: string, at: number): Promise<void>;
  /** Turns them off; false when they were not on. */
  optOutReminders(userId: string): Promise<boolean>;
  reminderOptIn(userId: string): Promise<ReminderOptIn | undefined>;
  /**
   * Claims the reminder for the vote period ending at `endsAt` (outcome 'pending'). False when the
   * member's latest reminder ends at or after `notBefore`: that period was reminded already.
   */
  claimReminder(userId: string, endsAt: number, at: number, notBefore: number): Promise<boolean>;
  /** Records how the claimed reminder went. */
  settleReminder(userId: string, endsAt: number, outcome: Exclude<ReminderOutcome, 'pending'>): Promise<void>;
  /** Gives a claim back after a failure that is worth trying again. */
  releaseReminder(userId: string, endsAt: number): Promise<void>;
  lastReminder(userId: string): Promise<ReminderRecord | undefined>;

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
