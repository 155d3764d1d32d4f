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
  | 'stored'
  | 'duplicate'
  | 'wrong_token'
  /** A list's delivery whose signature or secret does not match the list's secret. */
  | 'wrong_secret'
  /** A signed list delivery more than 5 minutes from this machine's clock. */
  | 'stale_signature'
  | 'malformed'
  | 'wrong_server'
  | 'ignored'
  | 'unavailable';

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
   * What reported it: a webhook delivery, the poll (a delivery that never came), or the first poll
   * (votes cast before the bot listened: they mark the period, are never announced nor counted).
   */
  source: 'webhook' | 'poll' | 'seed';
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

/** An opted-in member's vote on one list that ran out: a reminder is due for it. */
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

/** What waits and what is parked, for the metrics. */
export interface WorkCounts {
  events: number;
  votes: number;
  reviews: number;
  edits: number;
  parkedLanes: number;
  parkedPosts: number;
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
  /** The "voted on every list today" line; on when not set. */
  announceEveryList?: boolean;
  /** Hours after a vote runs out in which the next vote keeps the streak going. */
  streakGraceHours?: number;
}

/** How many stored secrets one key sealed, and in how many servers: what a start checks its keys against. */
export interface SealedKeyUse {
  /** The sealing key's id (src/secrets); undefined for values not in the sealed format. */
  keyId: string | undefined;
  values: number;
  servers: number;
}

/** A server the bot serves or served: its settings and its secrets, sealed (src/secrets). */
/** A list besides Guilds a server takes votes from (/setup listing add, or LISTING_<SITE>_SECRET). */
export interface ListingRecord {
  guildId: string;
  /** The list's site id (src/lists). */
  site: string;
  /** Sealed, like the server's credentials: the store never holds it in plain text. */
  secret: string;
  /** How long a vote on it runs when the site does not say (ms); null: the site's default. */
  voteLengthMs: number | null;
  createdAt: number;
  /** The last delivery the list made (a test included), and its last test delivery. */
  lastDeliveryAt: number | null;
  lastTestAt: number | null;
}

/** When a list last delivered to a server, and last sent a test. */
export type ListingActivity = Pick<ListingRecord, 'site' | 'lastDeliveryAt' | 'lastTestAt'>;

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
