import type { ServiceClient } from '../api/index.js';
import type { Config } from '../config.js';
import type { MemberNames } from './member-names.js';
import type { ReplyGuard } from './reply-guard.js';
import type { Logger } from '../log.js';

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
}
