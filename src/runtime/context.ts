import type { ServiceClient } from '../api/index.js';
import type * as Handlers from '../bot/handlers.js';
import type { Config, SecretSource } from '../config/bot.js';
import type { ReviewFeed } from '../feeds/review-feed.js';
import type { ServerNames } from '../bot/member-names.js';
import type { ReplyGuard } from '../bot/reply-guard.js';
import type { Logger } from '../core/log.js';
import type { VoteMirror } from '../mirror/vote-mirror.js';
import type { ServerSettings } from '../servers/server-settings.js';
import type { Forwards } from '../servers/forwards.js';
import type { Listings } from '../servers/listings.js';
import type { Servers } from '../servers/servers.js';
import type { SetupPorts } from './setup-ports.js';
import type {
  ExpiryStore,
  MirrorStore,
  ReminderStore,
  ReviewFeedStore,
  SiteBreakdownStore,
  StatsStore,
  VoteLedger,
} from '../store/index.js';
import type { StreakIndex } from './streak-index.js';

/**
 * The bot's settings a handler reads: the receiver's, the secrets key, the service client's, the
 * application's and the poll's, and what masks secrets in what members see.
 */
type HandlerConfig = SecretSource & Pick<Config, 'votePollMs' | 'forward'>;

/** What handlers read of the servers; the changes are /setup's alone (`setup.changes`). */
type ServerDirectory = Pick<
  Servers,
  'mode' | 'environment' | 'record' | 'settings' | 'isConfigured' | 'credentials' | 'webhookToken'
> & {
  readonly listings: Pick<Listings, 'any' | 'sites' | 'of' | 'checkFor' | 'topggToken'>;
  readonly forwards: Pick<Forwards, 'of' | 'secretOf'>;
};

/** What every handler may use, whichever server it serves; handed in by processes/bot.ts so handlers never reach for globals. */
export interface BaseContext {
  readonly config: HandlerConfig;
  readonly logger: Logger;
  /** Replies being posted or just posted, so one form sent twice posts once. */
  readonly replyGuard: ReplyGuard;
  /** Clock in one place so views and tests agree on "now". */
  readonly now: () => Date;
  /** Every server's settings, listings and destinations, to read. */
  readonly servers: ServerDirectory;
  /** The servers' changes, clients, deliveries, polls and commands, as /setup reads and makes them. */
  readonly setup: SetupPorts;
}

/** A member's running Top.gg vote, asked of Top.gg while they wait (runtime/topgg-recovery.ts). */
export type TopggVoteOf = (
  guildId: string,
  userId: string,
) => Promise<{ votedAt: number; endsAt: number; weight: number } | undefined>;

/** A set-up server's part of the context: its settings and its own service client, mirror and store. */
export interface BotContext extends BaseContext {
  readonly settings: ServerSettings;
  /** Members' display names in this server, shown beside mentions. */
  readonly names: ServerNames;
  /** This server's service client (its credentials, its rate limiter). */
  readonly api: ServiceClient;
  /** The server's active votes as last seen; `/vote` answers from it without a service call. */
  readonly votes?: Pick<VoteMirror, 'activeVote' | 'learned'>;
  /** The votes the bot recorded, for the leaderboard, members' streaks and /vote's line per list. */
  readonly ledger: Pick<VoteLedger, 'votesBetween' | 'countingSince' | 'runningVotes' | 'runningVotesOf'> &
    Pick<SiteBreakdownStore, 'votesBySite'> &
    Pick<MirrorStore, 'mirrorTotals' | 'countMark' | 'setCountMark'>;
  /** Members' streaks alive now, from memory. */
  readonly streaks: Pick<StreakIndex, 'streakOf' | 'alive'>;
  /** Votes per day and reviews per rating, for /stats. */
  readonly stats: StatsStore & Pick<SiteBreakdownStore, 'votesPerDayBySite'>;
  /** Members' reminder settings, their last reminder, and when their running vote ends. */
  readonly reminders: Pick<ReminderStore, 'optInReminders' | 'optOutReminders' | 'reminderOptIn' | 'lastReminder'> &
    Pick<ExpiryStore, 'scheduledExpiry'>;
  /** The reviews the bot has seen with no reply yet (/reviews pending). */
  readonly inbox: Pick<ReviewFeedStore, 'unansweredReviews'>;
  /** Posts of reviews in the review channel, marked when a reply is posted. */
  readonly feed?: Pick<ReviewFeed, 'onAnswered' | 'onGone'>;
  /** Asks Top.gg for a member's running vote the ledger lacks (/vote); absent where no reads run. */
  readonly topggVote?: (userId: string) => ReturnType<TopggVoteOf>;
}

/** The handlers of src/interactions/, as the router runs them with this context. */
export type ButtonHandler<Arg = unknown> = Handlers.ButtonHandler<Arg, BotContext>;
export type ModalHandler<Arg = unknown> = Handlers.ModalHandler<Arg, BotContext>;
export type ComponentHandler = Handlers.ComponentHandler<BotContext>;
