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
  /** 1 to 5; null for a list's review that came without one (discordlist.space's may). */
  rating: number | null;
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

/** The list a vote was cast on: 'guilds' or a site id of src/lists (a plain text column here). */
export type VoteSite = string;

/** Where every vote came from before the bot heard other lists, and where a vote naming none is from. */
export const GUILDS_SITE: VoteSite = 'guilds';

/**
 * What one recorded vote can count as, on any list: no list documents more than 2 (a Guilds double,
 * a Top.gg weekend vote). Every write is held to it, so no sum of a server's votes can overflow
 * SQLite's 64-bit SUM however a weight came in (store migration 18 brought older rows into it).
 */
export const VOTE_WEIGHTS = { min: 1, max: 2 } as const;

/** A vote's weight as the ledger records it: a whole number within VOTE_WEIGHTS. */
export const recordedWeight = (weight: number): number =>
  Number.isInteger(weight) ? Math.min(VOTE_WEIGHTS.max, Math.max(VOTE_WEIGHTS.min, weight)) : VOTE_WEIGHTS.min;

/**
 * A vote the bot accepted as new: once per member, per list, per vote period. A list's test
 * delivery is never a vote: a `kind` other than 'vote' is never recorded.
 */
export interface NewVote {
  userId: string;
  at: number;
  double: boolean;
  /**
   * What reported it: a webhook delivery, the poll (a delivery that never came), the first poll
   * (votes cast before the bot listened: they mark the period, are never announced nor counted), or
   * a list's API read after the bot was down ('recovered': counted, announced as recovered).
   */
  source: 'webhook' | 'poll' | 'seed' | 'recovered';
  /** Recorded as announced already at this time (ms): a recovered vote whose period had ended is counted, never announced. */
  announcedAt?: number;
  /** When this vote's period ends; a later vote on the same list before then is the same period. */
  periodEndsAt: number;
  /** How long after the previous period ran out this vote still continues the streak (the server's setting). */
  streakGraceMs?: number;
  /** The list it was cast on; Guilds when not given. */
  site?: VoteSite;
  /** The list's own id for the vote: a repeat with the same id is the same vote, whenever it comes. */
  siteEventId?: string;
  /** How many votes it counts as (Top.gg's weekend votes: 2); 2 for a double, else 1, when not given. */
  weight?: number;
  /** A vote without an id repeated closer than this (ms) to one on the same list is that one (Discadia). */
  dedupeWindowMs?: number;
  /** Only votes are recorded: a list's event spread in here with kind 'test' or 'review' is dropped. */
  kind?: 'vote';
}

export interface PendingAnnouncement {
  id: number;
  userId: string;
  double: boolean;
  at: number;
  /** The list it was cast on. */
  site: VoteSite;
  /** The lists the member voted on in the 24 hours up to this vote, this one's included, first voted first. */
  sitesToday: VoteSite[];
  /** The streak this vote made. */
  streak: number;
  /** Read from the list's API after the bot was down, not delivered: its line says so. */
  recovered: boolean;
  /** No earlier vote of the member is recorded: the first-vote template applies. */
  first: boolean;
  /** The member's recorded votes in the vote's calendar month (UTC) up to it, on every list, by weight. */
  monthVotes: number;
  /** The member's recorded votes up to this one, on every list, by weight (a double counting as two). */
  totalVotes: number;
}

/** A member's running vote on one list, for /vote's line per list. */
export interface RunningListVote {
  site: VoteSite;
  votedAt: number;
  endsAt: number;
  /** What it counts as (a double, or Top.gg's weekend vote: 2). */
  weight: number;
}

/** A vote as the ledger took it, for the vote API's list: `id` orders the ledger. */
export interface LedgerVote extends RunningListVote {
  id: number;
  userId: string;
}

/** A member's counted votes by weight: this calendar month (UTC) and ever. */
export interface MemberTotals {
  month: number;
  allTime: number;
}

/** A member's counted votes over a range: the sum, and what each list gave. */
export interface MemberVotesBySite {
  userId: string;
  votes: number;
  bySite: Record<VoteSite, number>;
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

/**
 * What one poll writes, all at once: the mirror brought in line with the service's list, the totals
 * it showed and the poll's outcome.
 */
export interface PolledMirror {
  /** The whole list (the mirror is replaced by it), or with `removed` only the entries that changed. */
  entries: readonly MirrorEntry[];
  /** Members no longer listed: `entries` then holds only what changed since the mirror was last written. */
  removed?: readonly string[];
  totals: MirrorTotals;
  poll: PollRecord;
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

/** Where a keyset read over every server stopped: the row's time, server and own key (user id, or vote id). */
export interface SweepCursor {
  at: number;
  guildId: string;
  key: string;
}

/** What a server has waiting for its channels: old posts and redraws by channel, votes and reviews to post. */
export interface WaitingWork {
  channels: string[];
  votes: boolean;
  reviews: boolean;
}

/** A due vote end, of any server. */
export interface DueExpiryOf extends ScheduledExpiry {
  guildId: string;
}

/** An opted-in member's vote on one list that ran out: a reminder is due for it. */
interface DueListReminder {
  userId: string;
  site: VoteSite;
  endsAt: number;
  /** The member's Discord language when they asked for reminders. */
  locale: string;
}

/** A due reminder of any server; `key` continues the read after it. */
export interface DueListReminderOf extends DueListReminder {
  guildId: string;
  key: string;
}

/** The latest reminder a member got: for the vote period ending at `endsAt`. */
export interface ReminderRecord {
  userId: string;
  /** The list whose vote ran out; none: Guilds. */
  site?: VoteSite;
  endsAt: number;
  at: number;
  outcome: ReminderOutcome;
}

export interface MirrorTotals {
  totalVotes: number;
  monthlyVotes: number;
  polledAt: number;
}

/** The highest Guilds counts shown so far, this month's for `month` (`YYYY-MM`, UTC): no count shown goes lower. */
export interface CountMark {
  allTime: number;
  thisMonth: number;
  month: string;
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
