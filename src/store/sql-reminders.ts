import type { ReminderStore } from './ports.js';
import { num } from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import { GUILDS_SITE, type ReminderOptIn, type ReminderOutcome, type ReminderRecord } from './types.js';

/**
 * Which ended votes the reminder pass reminds of: not one voted on again on its list since (a later
 * period there), and a Guilds vote only while the member's vote on another list ran on past it (else
 * its end is the member's last, which the expiry schedule reminds of). Both through votes_member_site.
 */
export const REMINDED = `NOT EXISTS (
    SELECT 1 FROM votes w
    WHERE w.guild_id = v.guild_id AND w.user_id = v.user_id AND w.site = v.site AND w.period_ends_at > v.period_ends_at)
  AND (v.site <> '${GUILDS_SITE}' OR EXISTS (
    SELECT 1 FROM votes w
    WHERE w.guild_id = v.guild_id AND w.user_id = v.user_id AND w.site <> '${GUILDS_SITE}'
      AND w.voted_at <= v.period_ends_at AND w.period_ends_at > v.period_ends_at))`;

/** One server's reminders: who asked for them (reminder_optins) and the latest each got (reminders_sent). */
export function sqlReminders<Base extends ServerScopedClass>(base: Base) {
  return class SqlReminders extends base implements ReminderStore {
    async optInReminders(userId: string, locale: string, at: number): Promise<void> {
      await this.query(
        `INSERT INTO reminder_optins (guild_id, user_id, locale, opted_in_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (guild_id, user_id) DO UPDATE SET locale = excluded.locale`,
        [userId, locale, at],
      );
    }

    optOutReminders(userId: string): Promise<boolean> {
      return this.changed('DELETE FROM reminder_optins WHERE guild_id = $1 AND user_id = $2 RETURNING user_id', [
        userId,
      ]);
    }

    async reminderOptIn(userId: string): Promise<ReminderOptIn | undefined> {
      const [row] = await this.query(
        'SELECT user_id, locale, opted_in_at FROM reminder_optins WHERE guild_id = $1 AND user_id = $2',
        [userId],
      );
      return row && { userId: String(row.user_id), locale: String(row.locale), since: num(row.opted_in_at) };
    }

    claimReminder(userId: string, endsAt: number, at: number, notBefore: number, site = GUILDS_SITE): Promise<boolean> {
      // One statement: the check and the claim cannot be split by a second pass over the same expiry.
      return this.changed(
        `INSERT INTO reminders_sent (guild_id, user_id, site, ends_at, at, outcome)
         VALUES ($1, $2, $6, $3, $4, 'pending')
         ON CONFLICT (guild_id, user_id, site) DO UPDATE
           SET ends_at = excluded.ends_at, at = excluded.at, outcome = excluded.outcome
         WHERE reminders_sent.ends_at < $5
         RETURNING user_id`,
        [userId, endsAt, at, notBefore, site],
      );
    }

    async settleReminder(
      userId: string,
      endsAt: number,
      outcome: Exclude<ReminderOutcome, 'pending'>,
      site = GUILDS_SITE,
    ): Promise<void> {
      await this.query(
        'UPDATE reminders_sent SET outcome = $4 WHERE guild_id = $1 AND user_id = $2 AND site = $5 AND ends_at = $3',
        [userId, endsAt, outcome, site],
      );
    }

    async releaseReminder(userId: string, endsAt: number, site = GUILDS_SITE): Promise<void> {
      await this.query(
        `DELETE FROM reminders_sent
         WHERE guild_id = $1 AND user_id = $2 AND site = $4 AND ends_at = $3 AND outcome = 'pending'`,
        [userId, endsAt, site],
      );
    }

    async lastReminder(userId: string): Promise<ReminderRecord | undefined> {
      const [row] = await this.query(
        `SELECT user_id, site, ends_at, at, outcome FROM reminders_sent WHERE guild_id = $1 AND user_id = $2
         ORDER BY at DESC LIMIT 1`,
        [userId],
      );
      return (
        row && {
          userId: String(row.user_id),
          // A Guilds reminder's record reads as it did before lists.
          ...(String(row.site) === GUILDS_SITE ? {} : { site: String(row.site) }),
          endsAt: num(row.ends_at),
          at: num(row.at),
          outcome: String(row.outcome) as ReminderOutcome,
        }
      );
    }
  };
}
