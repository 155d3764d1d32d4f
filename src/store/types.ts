/** An accepted webhook delivery, kept until it has been handled (the outbox). */
export interface StoredEvent {
  id: number;
  kind: string;
  payload: unknown;
  receivedAt: number;
}

/** Which channel message shows which review, and whether it has been answered. */
export interface FeedPost {
  reviewId: string;
  authorId: string;
  rating: number;
  content: string;
  receivedAt: number;
  channelId: string;
  messageId: string;
  answer: FeedAnswer | null;
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
}

export interface PendingAnnouncement {
  id: number;
  userId: string;
  double: boolean;
  at: number;
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

/**
 * Everything that must survive a restart. One interface; SQLite and PostgreSQL implement it with
 * the same SQL, and the same test suite runs against both.
 */
export interface Store {
  readonly backend: 'sqlite' | 'postgres';
  readonly driver: 'node:sqlite' | 'better-sqlite3' | 'pg';
  /** Highest migration applied. */
  schemaVersion(): Promise<number>;

  addEvent(kind: string, payload: unknown, receivedAt: number): Promise<number>;
  /** Unhandled events, oldest first. */
  pendingEvents(limit: number): Promise<StoredEvent[]>;
  markEventHandled(id: number, at: number): Promise<void>;

  feedPost(reviewId: string): Promise<FeedPost | undefined>;
  saveFeedPost(post: Omit<FeedPost, 'answer'>): Promise<void>;
  /** Records the answer (the first one stands); undefined when the review has no post. */
  markAnswered(reviewId: string, answer: FeedAnswer): Promise<FeedPost | undefined>;

  /**
   * Records the vote and queues its announcement unless the member already has one in a period
   * that is still running at `vote.at`. Returns whether it was new.
   */
  acceptVote(vote: NewVote): Promise<boolean>;
  /** Moves the end of the member's current period (the service's expiry is known later). */
  setPeriodEnd(userId: string, at: number, periodEndsAt: number): Promise<void>;
  pendingAnnouncements(limit: number): Promise<PendingAnnouncement[]>;
  markAnnounced(ids: readonly number[], messageId: string | null, at: number): Promise<void>;
  /** When the store was created: the bot has been recording votes since then. */
  countingSince(): Promise<number>;
  /** Votes recorded in [from, to), a double counting as two, for the leaderboard. */
  votesBetween(from: number, to: number): Promise<Array<{ userId: string; votes: number }>>;

  /** Replaces the whole mirror with a poll's answer. */
  replaceMirror(entries: readonly MirrorEntry[], totals: MirrorTotals): Promise<void>;
  /** One member's vote as a refresh saw it; null removes it. */
  setMirrorEntry(userId: string, entry: MirrorEntry | null): Promise<void>;
  mirrorEntry(userId: string): Promise<MirrorEntry | undefined>;
  mirrorTotals(): Promise<MirrorTotals | undefined>;

  /** All mirrored votes, for the reconcile pass. */
  mirrorEntries(): Promise<MirrorEntry[]>;

  /** Records (or moves) when the member's running vote ends. */
  scheduleExpiry(userId: string, endsAt: number): Promise<void>;
  /** Expiries due at `now`, soonest first. */
  dueExpiries(now: number, limit: number): Promise<ScheduledExpiry[]>;
  /** The soonest scheduled end, if any. */
  nextExpiryAt(): Promise<number | undefined>;
  /** Removes the entry if it still ends at `endsAt`: a vote that moved it meanwhile keeps it. */
  clearExpiry(userId: string, endsAt: number): Promise<void>;
  scheduledExpiry(userId: string): Promise<ScheduledExpiry | undefined>;

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

  close(): Promise<void>;
}
