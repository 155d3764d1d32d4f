import type { ListingStore } from './root-ports.js';
import { announceServerChange } from './servers-channel.js';
import { num, optionalNum, updateEach, type Row } from './sql.js';
import type { AllServersClass } from './sql-scoped.js';
import type { ListingActivity, ListingRecord } from './root-types.js';

/** The lists besides Guilds each server takes votes from (listings), for every server at once. */
export function sqlListings<Base extends AllServersClass>(base: Base) {
  return class SqlListings extends base implements ListingStore {
    async listings(guildId?: string): Promise<ListingRecord[]> {
      const rows =
        guildId === undefined
          ? await this.db.query(`${WITH_ACTIVITY} ORDER BY l.guild_id, l.site`)
          : await this.db.query(`${WITH_ACTIVITY} WHERE l.guild_id = $1 ORDER BY l.site`, [guildId]);
      return rows.map(toListing);
    }

    async listingActivity(guildId: string): Promise<ListingActivity[]> {
      const rows = await this.db.query(
        'SELECT site, last_delivery_at, last_test_at FROM listing_activity WHERE guild_id = $1 ORDER BY site',
        [guildId],
      );
      return rows.map(toActivity);
    }

    saveListing(record: ListingRecord): Promise<void> {
      return this.db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO listings (guild_id, site, secret, vote_length_ms, created_at, api_token)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (guild_id, site) DO UPDATE SET secret = excluded.secret,
             vote_length_ms = excluded.vote_length_ms, created_at = excluded.created_at, api_token = excluded.api_token`,
          [record.guildId, record.site, record.secret, record.voteLengthMs, record.createdAt, record.apiToken ?? null],
        );
        // Written by deliveries alone: a record's copy may be older than the store's.
        if (record.lastDeliveryAt === null && record.lastTestAt === null)
          await tx.query('DELETE FROM listing_activity WHERE guild_id = $1 AND site = $2', [
            record.guildId,
            record.site,
          ]);
        await announceServerChange(tx, record.guildId);
      });
    }

    removeListing(guildId: string, site: string): Promise<boolean> {
      return this.db.transaction(async (tx) => {
        const gone = await tx.query('DELETE FROM listings WHERE guild_id = $1 AND site = $2 RETURNING site', [
          guildId,
          site,
        ]);
        await tx.query('DELETE FROM listing_activity WHERE guild_id = $1 AND site = $2', [guildId, site]);
        await announceServerChange(tx, guildId);
        return gone.length > 0;
      });
    }

    async listingDelivered(guildId: string, site: string, at: number, test: boolean): Promise<void> {
      // Handling may come late or twice (at least once): a time only ever moves forward.
      await this.db.query(
        `INSERT INTO listing_activity (guild_id, site, last_delivery_at, last_test_at)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (guild_id, site) DO UPDATE SET
           last_delivery_at = CASE WHEN listing_activity.last_delivery_at IS NULL
               OR listing_activity.last_delivery_at < excluded.last_delivery_at
             THEN excluded.last_delivery_at ELSE listing_activity.last_delivery_at END,
           last_test_at = CASE WHEN excluded.last_test_at IS NOT NULL AND (listing_activity.last_test_at IS NULL
               OR listing_activity.last_test_at < excluded.last_test_at)
             THEN excluded.last_test_at ELSE listing_activity.last_test_at END`,
        [guildId, site, at, test ? at : null],
      );
    }

    resealListings(records: readonly Pick<ListingRecord, 'guildId' | 'site' | 'secret' | 'apiToken'>[]): Promise<void> {
      return updateEach(
        this.db,
        'UPDATE listings SET secret = $3, api_token = $4 WHERE guild_id = $1 AND site = $2',
        records.map((record) => [record.guildId, record.site, record.secret, record.apiToken ?? null]),
      );
    }
  };
}

const WITH_ACTIVITY = `SELECT l.guild_id, l.site, l.secret, l.vote_length_ms, l.created_at, l.api_token,
    a.last_delivery_at, a.last_test_at
  FROM listings l LEFT JOIN listing_activity a ON a.guild_id = l.guild_id AND a.site = l.site`;

function toListing(row: Row): ListingRecord {
  return {
    guildId: String(row.guild_id),
    site: String(row.site),
    secret: String(row.secret),
    voteLengthMs: optionalNum(row.vote_length_ms) ?? null,
    apiToken: row.api_token === null || row.api_token === undefined ? null : String(row.api_token),
    createdAt: num(row.created_at),
    lastDeliveryAt: optionalNum(row.last_delivery_at) ?? null,
    lastTestAt: optionalNum(row.last_test_at) ?? null,
  };
}

const toActivity = (row: Row): ListingActivity => ({
  site: String(row.site),
  lastDeliveryAt: optionalNum(row.last_delivery_at) ?? null,
  lastTestAt: optionalNum(row.last_test_at) ?? null,
});
