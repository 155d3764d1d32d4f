import type { ServiceClient } from '../api/index.js';
import type { Config } from '../config.js';
import type { ReviewFeed } from '../feeds/review-feed.js';
import type { MemberNames } from './member-names.js';
import type { ReplyGuard } from './reply-guard.js';
import type { Logger } from '../log.js';
import type { VoteMirror } from '../mirror/vote-mirror.js';
import type { Store } from '../store/index.js';

/** What every handler may use; handed in by main.ts so handlers never reach for globals. */
export interface BotContext {
  readonly config: Config;
  readonly api: ServiceClient;
  readonly logger: Logger;
  /** Replies being posted or just posted, so one form sent twice posts once. */
  readonly replyGuard: ReplyGuard;
  /** Members' display names, shown beside mentions. */
  readonly names: MemberNames;
  /** Clock in one place so views and tests agree on "now". */
  readonly now: () => Date;
  /** The guild's active votes as last seen; `/vote` answers from it without a service call. */
  readonly votes?: VoteMirror;
  /** The votes the bot recorded, for the leaderboard. */
  readonly ledger: Pick<Store, 'votesBetween' | 'countingSince'>;
  /** Members' reminder settings, their last reminder, and when their running vote ends. */
  readonly reminders: Pick<
    Store,
    'optInReminders' | 'optOutReminders' | 'reminderOptIn' | 'lastReminder' | 'scheduledExpiry'
  >;
  /** Posts of reviews in REVIEW_CHANNEL_ID, marked when a reply is posted. */
  readonly feed?: ReviewFeed;
}
