import type { ListingStore } from './ports.js';
import { SERVERS_CHANNEL } from './servers-channel.js';
import { num, optionalNum, type Row } from './sql.js';
import type { AllServersClass } from './sql-scoped.js';
import type { ListingRecord } from './types.js';

/** The lists besides Guilds each server takes votes from (listings), for every server at once. */
export function sqlListings<Base extends AllServersClass>(base: Base) {
  return class SqlListings extends base implements ListingStore {
    async listings(guildId?: string): Promise<ListingRecord[]> {
      const rows =
        guildId === undefined
          ? await this.db.query('SELECT * FROM listings ORDER BY guild_id, site')
          : await this.db.query('SELECT * FROM listings WHERE guild_id = $1 ORDER BY site', [guildId]);
      return rows.map(toListing);
    }

    saveListing(record: ListingRecord): Promise<void> {
      return this.db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO listings (guild_id, site, secret, vote_length_ms, created_at, last_delivery_at, last_test_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (guild_id, site) DO UPDATE SET secret = excluded.secret,
             vote_length_ms = excluded.vote_length_ms, created_at = excluded.created_at,
             last_delivery_at = excluded.last_delivery_at, last_test_at = excluded.last_test_at`,
          [
            record.guildId,
            record.site,
            record.secret,
            record.voteLengthMs,
            record.createdAt,
            record.lastDeliveryAt,
            record.lastTestAt,
          ],
        );
        // Receivers in other processes read the server's listings again when this commits.
        if (tx.dialect === 'postgres') await tx.query(`SELECT pg_notify('${SERVERS_CHANNEL}', $1)`, [record.guildId]);
      });
    }

    removeListing(guildId: string, site: string): Promise<boolean> {
      return this.db.transaction(async (tx) => {
        const gone = await tx.query('DELETE FROM listings WHERE guild_id = $1 AND site = $2 RETURNING site', [
          guildId,
          site,
        ]);
        if (tx.dialect === 'postgres') await tx.query(`SELECT pg_notify('${SERVERS_CHANNEL}', $1)`, [guildId]);
        return gone.length > 0;
      });
    }

    async listingDelivered(guildId: string, site: string, at: number, test: boolean): Promise<void> {
      // Handling may come late or twice (at least once): a time only ever moves forward.
      await this.db.query(
        `UPDATE listings SET last_delivery_at = CASE WHEN last_delivery_at IS NULL OR last_delivery_at < $3
             THEN $3 ELSE last_delivery_at END,
           last_test_at = CASE WHEN $4 = 1 AND (last_test_at IS NULL OR last_test_at < $3)
             THEN $3 ELSE last_test_at END
         WHERE guild_id = $1 AND site = $2`,
        [guildId, site, at, test ? 1 : 0],
      );
    }

    resealListings(records: readonly Pick<ListingRecord, 'guildId' | 'site' | 'secret'>[]): Promise<void> {
      return this.db.transaction(async (tx) => {
        for (const record of records)
          await tx.query('UPDATE listings SET secret = $3 WHERE guild_id = $1 AND site = $2', [
            record.guildId,
            record.site,
            record.secret,
          ]);
      });
    }
  };
}

function toListing(row: Row): ListingRecord {
  return {
    guildId: String(row.guild_id),
    site: String(row.site),
    secret: String(row.secret),
    voteLengthMs: optionalNum(row.vote_length_ms) ?? null,
    createdAt: num(row.created_at),
    lastDeliveryAt: optionalNum(row.last_delivery_at) ?? null,
    lastTestAt: optionalNum(row.last_test_at) ?? null,
  };
}
