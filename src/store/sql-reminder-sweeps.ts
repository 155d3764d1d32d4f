import { num, optionalNum } from './sql.js';
import type { AllServersClass } from './sql-scoped.js';
import { REMINDED } from './sql-reminders.js';
import type { DueListReminderOf, SweepCursor } from './types.js';

/** The list reminders due over every server at once, read from the opted-in members (keyset pages). */
export function sqlReminderSweeps<Base extends AllServersClass>(base: Base) {
  return class SqlReminderSweeps extends base {
    async dueListRemindersAll(
      after: number,
      upTo: number,
      cursor: SweepCursor | undefined,
      limit: number,
    ): Promise<DueListReminderOf[]> {
      const from = cursor ?? { at: after, guildId: '', key: '' };
      // Opted-in members are few: the read starts from them and meets their votes by votes_member_site.
      const rows = await this.db.query(
        `SELECT v.guild_id, v.user_id, v.site, v.period_ends_at, v.id, o.locale FROM reminder_optins o
         JOIN votes v ON v.guild_id = o.guild_id AND v.user_id = o.user_id
         WHERE v.period_ends_at > $1 AND v.period_ends_at <= $2 AND ${REMINDED}
           AND (v.period_ends_at > $3 OR (v.period_ends_at = $3 AND (v.guild_id > $4 OR (v.guild_id = $4 AND v.id > $5))))
         ORDER BY v.period_ends_at, v.guild_id, v.id LIMIT $6`,
        [after, upTo, from.at, from.guildId, from.key === '' ? -1 : Number(from.key), limit],
      );
      return rows.map((row) => ({
        guildId: String(row.guild_id),
        userId: String(row.user_id),
        site: String(row.site),
        endsAt: num(row.period_ends_at),
        locale: String(row.locale),
        key: String(row.id),
      }));
    }

    async nextListReminderAfter(after: number): Promise<number | undefined> {
      const [row] = await this.db.query(
        `SELECT MIN(v.period_ends_at) AS next FROM reminder_optins o
         JOIN votes v ON v.guild_id = o.guild_id AND v.user_id = o.user_id
         WHERE v.period_ends_at > $1 AND ${REMINDED}`,
        [after],
      );
      return optionalNum(row?.next);
    }
  };
}
