import type { Logger } from '../core/log.js';
import type { SweepCursor, SweepStore } from '../store/index.js';
import { STORE_BACKOFF } from '../work/backoff.js';
import { DrainLoop } from '../work/drain-loop.js';
import { LATE_LIMIT_MS, type VoteReminder } from './vote-reminder.js';

export interface ListRemindersOptions {
  store: Pick<SweepStore, 'dueListRemindersAll' | 'nextListReminderAfter'>;
  logger: Logger;
  now: () => number;
  /** How often a pass runs whatever the next end is (EXPIRY_CHECK_SECONDS): what a wake-up missed is late by at most this. */
  checkMs: number;
}

/** Ends read at once; a pass reads on until it has them all. */
const BATCH = 500;

/**
 * Reminders per list: an opted-in member's vote on Top.gg (or another list) that ran out gets its
 * own reminder naming the list, as does a Guilds vote that ran out while another list's vote ran on
 * (the expiry schedule keeps only each member's last end, and reminds of that one). One pass for
 * every server a process runs, over the vote ends since the last pass, at the next end and every
 * checkMs; the claim in the store keeps it one reminder per list per vote period.
 */
export class ListReminders {
  readonly #loop: DrainLoop;
  /** The servers this process reminds for: another process's rows are read past. */
  readonly #reminders = new Map<string, Pick<VoteReminder, 'remind'>>();
  /** The ends up to here were handled; at start, the last hour's (older ones would be late anyway). */
  #since: number | undefined;

  constructor(private readonly options: ListRemindersOptions) {
    this.#loop = new DrainLoop(() => this.#pass(), {
      backoff: STORE_BACKOFF,
      warn: { logger: options.logger, line: 'could not read the votes on other lists that ran out' },
    });
  }

  start(): void {
    this.#loop.wake();
    this.#loop.every(this.options.checkMs);
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** A server's reminders are sent from now on (its runtime started). */
  join(guildId: string, reminder: Pick<VoteReminder, 'remind'>): void {
    this.#reminders.set(guildId, reminder);
  }

  leave(guildId: string, reminder: Pick<VoteReminder, 'remind'>): void {
    if (this.#reminders.get(guildId) === reminder) this.#reminders.delete(guildId);
  }

  /** A vote was recorded: its end may come before the one the pass waits for. */
  voteRecorded(endsAt: number): void {
    // A millisecond after: the end itself is due once the clock has passed it.
    this.#loop.wakeAt(endsAt + 1, this.options.now());
  }

  async #pass(): Promise<void> {
    const { store, logger, now } = this.options;
    const at = now();
    const after = this.#since ?? at - LATE_LIMIT_MS;
    let retryFrom: number | undefined;
    let cursor: SweepCursor | undefined;
    for (;;) {
      const due = await store.dueListRemindersAll(after, at, cursor, BATCH);
      for (const { guildId, userId, site, endsAt, locale } of due) {
        const reminder = this.#reminders.get(guildId);
        if (!reminder) continue;
        try {
          await reminder.remind(userId, endsAt, locale, site);
        } catch (err) {
          // The claim was given back: the next pass reads this end again (the others' claims hold).
          retryFrom = Math.min(retryFrom ?? endsAt, endsAt);
          logger.warn(
            { err, guildId, userId, site },
            'could not remind of a vote that ran out; trying again with the next pass',
          );
        }
      }
      const last = due.at(-1);
      if (due.length < BATCH || last === undefined) break;
      cursor = { at: last.endsAt, guildId: last.guildId, key: last.key };
    }
    this.#since = retryFrom === undefined ? at : retryFrom - 1;
    const next = await store.nextListReminderAfter(at);
    if (next !== undefined) this.#loop.wakeAt(next + 1, now());
  }
}
