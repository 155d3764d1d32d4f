import { DiscordAPIError, RESTJSONErrorCodes } from 'discord.js';
import { messageBody, type Poster } from '../bot/poster.js';
import { translatorFor } from '../i18n/index.js';
import type { Logger } from '../core/log.js';
import type { ExpiryConsumer } from '../schedule/expiry-consumers.js';
import { isSiteId, SITE_FACTS } from '../lists/index.js';
import {
  GUILDS_SITE,
  type ReminderOutcome,
  type ReminderStore,
  type VoteLedger,
  type VoteSite,
} from '../store/index.js';
import { reminderMentionView, reminderView } from '../views/vote-reminder.js';

export interface VoteReminderOptions {
  poster: Poster;
  store: Pick<ReminderStore, 'reminderOptIn' | 'claimReminder' | 'settleReminder' | 'releaseReminder'> &
    Pick<VoteLedger, 'runningVotesOf'>;
  logger: Logger;
  now: () => number;
  voteUrl: string | undefined;
  /** REMINDER_CHANNEL_ID: where a member whose DMs are closed is mentioned instead. */
  channelId: string | undefined;
  serverName: () => string;
}

/** A reminder this late (the bot was down when the vote ran out) is skipped rather than sent late. */
export const LATE_LIMIT_MS = 60 * 60_000;
/**
 * An end within this much after the one already reminded is the same vote period: the service's
 * expiry can land a little after the end the bot had estimated, once the reminder went out.
 */
const SAME_PERIOD_MS = 10 * 60_000;

type Delivered = Exclude<ReminderOutcome, 'pending' | 'late'>;

/**
 * `/remind on`: when an opted-in member's vote runs out, one DM saying they can vote again; with DMs
 * closed, a mention in REMINDER_CHANNEL_ID, else a log line. The claim in the store makes it one per
 * vote period whatever restarts and retries do; a crash between claim and send loses that one
 * reminder rather than risking two.
 */
export class VoteReminder implements ExpiryConsumer {
  readonly name = 'vote reminder';

  constructor(private readonly options: VoteReminderOptions) {}

  async onActive(): Promise<void> {}

  /**
   * The member's last running vote ran out. A Guilds vote's end is reminded of here, as it always
   * was; an end that is another list's (the member's vote there outlasted Guilds') is the list
   * reminder pass's (list-reminders.ts), which also reminded of the Guilds vote when it ended.
   */
  async onExpired(userId: string, endsAt: number): Promise<void> {
    const { store } = this.options;
    const optIn = await store.reminderOptIn(userId);
    if (!optIn) return;
    if (await this.#anotherListsEnd(userId, endsAt)) return;
    await this.remind(userId, endsAt, optIn.locale, GUILDS_SITE);
  }

  /** Whether the end is a vote's on another list and not a Guilds vote's: only then is a ledger read of any use. */
  async #anotherListsEnd(userId: string, endsAt: number): Promise<boolean> {
    const ending = (await this.options.store.runningVotesOf(userId, endsAt - SAME_PERIOD_MS)).filter(
      (vote) => Math.abs(vote.endsAt - endsAt) < SAME_PERIOD_MS,
    );
    return ending.length > 0 && ending.every((vote) => vote.site !== GUILDS_SITE);
  }

  /**
   * One reminder for the member's vote on `site` that ended at `endsAt`: claimed in the store first,
   * so it is one per list per vote period whatever restarts and retries do.
   */
  async remind(userId: string, endsAt: number, locale: string, site: VoteSite): Promise<void> {
    const { store, logger, now } = this.options;
    const at = now();
    if (!(await store.claimReminder(userId, endsAt, at, endsAt - SAME_PERIOD_MS, site))) return;
    if (at - endsAt > LATE_LIMIT_MS) {
      await store.settleReminder(userId, endsAt, 'late', site);
      logger.info(
        { userId, site, lateMs: at - endsAt },
        'vote reminder skipped: the vote ran out over an hour ago, while the bot was down',
      );
      return;
    }
    let outcome: Delivered;
    try {
      outcome = await this.#deliver(userId, locale, site);
    } catch (err) {
      await store.releaseReminder(userId, endsAt, site);
      throw err;
    }
    await store.settleReminder(userId, endsAt, outcome, site);
  }

  async #deliver(userId: string, locale: string, site: VoteSite): Promise<Delivered> {
    const { poster, logger, voteUrl, channelId, serverName } = this.options;
    const i18n = translatorFor(locale);
    const listName = listNameOf(site);
    try {
      await poster.dm(userId, messageBody(reminderView(serverName(), voteUrl, i18n, listName)));
      logger.info({ userId }, 'vote reminder sent by DM');
      return 'dm';
    } catch (err) {
      if (isError(err, RESTJSONErrorCodes.UnknownUser)) {
        logger.info({ userId }, 'vote reminder not delivered: Discord does not know the member any more');
        return 'undelivered';
      }
      if (!isError(err, RESTJSONErrorCodes.CannotSendMessagesToThisUser)) throw err;
    }
    if (channelId === undefined) {
      logger.info(
        { userId },
        "vote reminder not delivered: the member's DMs are closed and REMINDER_CHANNEL_ID is not set",
      );
      return 'undelivered';
    }
    const view = reminderMentionView(userId, serverName(), voteUrl, i18n, listName);
    try {
      await poster.send(channelId, {
        ...messageBody(view),
        content: view.content,
        allowed_mentions: { users: [userId] },
      });
    } catch (err) {
      if (!(err instanceof DiscordAPIError) || err.status >= 500) throw err;
      logger.warn({ err, userId, channelId }, 'vote reminder not delivered: REMINDER_CHANNEL_ID refused the mention');
      return 'undelivered';
    }
    logger.info({ userId, channelId }, "vote reminder posted in REMINDER_CHANNEL_ID: the member's DMs are closed");
    return 'channel';
  }
}

/** The list's name for a vote on a list other than Guilds; undefined for Guilds (its reminder reads as always). */
function listNameOf(site: VoteSite): string | undefined {
  if (site === GUILDS_SITE) return undefined;
  return isSiteId(site) ? SITE_FACTS[site].name : site;
}

const isError = (err: unknown, code: RESTJSONErrorCodes): boolean =>
  err instanceof DiscordAPIError && err.code === code;
