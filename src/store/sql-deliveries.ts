import { REFUSED_ROW } from './delivery-windows.js';
import type { DeliveryHistoryStore } from './ports.js';
import type { DeliveryLogStore } from './root-ports.js';
import { IDS_PER_STATEMENT, num, placeholders, ROWS_PER_INSERT, slices, valueRows } from './sql.js';
import type { AllServersClass, ServerScopedClass } from './sql-scoped.js';
import type { DeliveryOutcome, DeliveryRecord } from './root-types.js';

/** Numbers each server's lines newest first, refusals apart from the rest (delivery-windows.ts). */
const NEWEST_OF_EACH_WINDOW = `PARTITION BY guild_id, ${REFUSED_ROW} ORDER BY at DESC, id DESC`;

/** The delivery log (deliveries), written for every server at once. */
export function sqlDeliveryLog<Base extends AllServersClass>(base: Base) {
  return class SqlDeliveryLog extends base implements DeliveryLogStore {
    recordDeliveries(entries: readonly DeliveryRecord[], keep: number): Promise<void> {
      if (entries.length === 0) return Promise.resolve();
      // Many rows a statement and one trim for many servers: a flood of deliveries across servers
      // cost two statements per server every second.
      return this.db.transaction(async (tx) => {
        for (const slice of slices(entries, ROWS_PER_INSERT)) {
          await tx.query(
            `INSERT INTO deliveries (guild_id, at, event, outcome) VALUES ${valueRows(slice.length, 4, 1)}`,
            slice.flatMap((entry) => [entry.guildId, entry.at, entry.event, entry.outcome]),
          );
        }
        for (const slice of slices([...new Set(entries.map((entry) => entry.guildId))], IDS_PER_STATEMENT)) {
          const list = placeholders(slice.length, 2);
          await tx.query(
            `DELETE FROM deliveries WHERE id IN (
               SELECT id FROM (
                 SELECT id, ROW_NUMBER() OVER (${NEWEST_OF_EACH_WINDOW}) AS newest
                 FROM deliveries WHERE guild_id IN (${list})
               ) AS ranked WHERE newest > $1)`,
            [keep, ...slice],
          );
        }
      });
    }
  };
}

/** One server's delivery log, read. */
export function sqlServerDeliveries<Base extends ServerScopedClass>(base: Base) {
  return class SqlServerDeliveries extends base implements Pick<DeliveryHistoryStore, 'recentDeliveries'> {
    async recentDeliveries(limit: number): Promise<DeliveryRecord[]> {
      const rows = await this.query(
        `SELECT at, event, outcome FROM (
           SELECT id, at, event, outcome, ROW_NUMBER() OVER (${NEWEST_OF_EACH_WINDOW}) AS newest
           FROM deliveries WHERE guild_id = $1
         ) AS ranked WHERE newest <= $2 ORDER BY at DESC, id DESC`,
        [limit],
      );
      return rows.map((row) => ({
        guildId: this.guildId,
        at: num(row.at),
        event: String(row.event),
        outcome: String(row.outcome) as DeliveryOutcome,
      }));
    }
  };
}
