import { SEALED_HEAD_CHARS, sealingKeyId } from '../secrets/secret-box.js';
import { SERVER_TABLES, storeCreatedAt } from './migrations.js';
import type { VoteLedger } from './ports.js';
import type { ServerRecordStore } from './root-ports.js';
import { announceServerChange, SERVERS_CHANNEL } from './servers-channel.js';
import { num, optionalNum, orNull, type Row } from './sql.js';
import type { AllServersClass, ServerScopedClass } from './sql-scoped.js';
import type { SealedKeyUse, ServerRecord, ServerSettingsRecord } from './root-types.js';

const SEALED_COLUMNS = ['api_key', 'app_id', 'webhook_token'] as const;

/** Every sealed value's head (which key sealed it), with its server. */
const SEALED_HEADS = SEALED_COLUMNS.map(
  (column) => `SELECT guild_id, substr(${column}, 1, ${SEALED_HEAD_CHARS}) AS head FROM servers
    WHERE ${column} IS NOT NULL`,
)
  // The listings' secrets are sealed the same way, so the same keys must open them.
  .concat(`SELECT guild_id, substr(secret, 1, ${SEALED_HEAD_CHARS}) AS head FROM listings`)
  .concat(
    `SELECT guild_id, substr(api_token, 1, ${SEALED_HEAD_CHARS}) AS head FROM listings WHERE api_token IS NOT NULL`,
    `SELECT guild_id, substr(secret, 1, ${SEALED_HEAD_CHARS}) AS head FROM forward_destinations WHERE secret IS NOT NULL`,
  )
  .join(' UNION ALL ');

/** The servers the bot serves or served (servers): settings, sealed secrets, and the day it left. */
export function sqlServers<Base extends AllServersClass>(base: Base) {
  return class SqlServers extends base implements ServerRecordStore {
    async server(guildId: string): Promise<ServerRecord | undefined> {
      const [row] = await this.db.query('SELECT * FROM servers WHERE guild_id = $1', [guildId]);
      return row && toServer(row);
    }

    async servers(): Promise<ServerRecord[]> {
      return (await this.db.query('SELECT * FROM servers ORDER BY guild_id')).map(toServer);
    }

    async webhookServerIds(): Promise<string[]> {
      const rows = await this.db.query(
        `SELECT guild_id FROM servers
         WHERE left_at IS NULL AND api_key IS NOT NULL AND app_id IS NOT NULL
           AND (webhook_token IS NOT NULL OR guild_id IN (SELECT guild_id FROM listings))`,
      );
      return rows.map((row) => String(row.guild_id));
    }

    async saveServer(record: ServerRecord): Promise<void> {
      const upsert = `INSERT INTO servers (guild_id, settings, api_key, app_id, webhook_token, created_at, updated_at, left_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings, api_key = excluded.api_key,
           app_id = excluded.app_id, webhook_token = excluded.webhook_token, updated_at = excluded.updated_at,
           left_at = excluded.left_at`;
      // On PostgreSQL receivers in other processes keep the set of servers that take deliveries:
      // one statement saves the record and tells them when it commits.
      await this.db.query(
        this.db.dialect === 'postgres'
          ? `WITH saved AS (${upsert} RETURNING guild_id) SELECT pg_notify('${SERVERS_CHANNEL}', guild_id) FROM saved`
          : upsert,
        [
          record.guildId,
          JSON.stringify(record.settings),
          record.sealed.apiKey,
          record.sealed.appId,
          record.sealed.webhookToken,
          record.createdAt,
          record.updatedAt,
          record.leftAt,
        ],
      );
    }

    forgetServer(guildId: string): Promise<void> {
      return this.db.transaction(async (tx) => {
        for (const table of SERVER_TABLES) await tx.query(`DELETE FROM ${table} WHERE guild_id = $1`, [guildId]);
        await tx.query('DELETE FROM servers WHERE guild_id = $1', [guildId]);
        await announceServerChange(tx, guildId);
      });
    }

    async sealedKeyUses(): Promise<SealedKeyUse[]> {
      const rows = await this.db.query(
        `SELECT head, COUNT(*) AS sealed_values, COUNT(DISTINCT guild_id) AS servers FROM (${SEALED_HEADS}) AS sealed
         GROUP BY head ORDER BY head`,
      );
      return rows.map((row) => ({
        keyId: sealingKeyId(String(row.head)),
        values: num(row.sealed_values),
        servers: num(row.servers),
      }));
    }

    adoptUnowned(guildId: string): Promise<number> {
      return this.db.transaction(async (tx) => {
        let moved = 0;
        for (const table of SERVER_TABLES)
          moved += (
            await tx.query(`UPDATE ${table} SET guild_id = $1 WHERE guild_id = '' RETURNING guild_id`, [guildId])
          ).length;
        return moved;
      });
    }
  };
}

/** One server's record, as its store reads it: since when its votes are counted. */
export function sqlServerRecord<Base extends ServerScopedClass>(base: Base) {
  return class SqlServerRecord extends base implements Pick<VoteLedger, 'countingSince'> {
    async countingSince(): Promise<number> {
      const [server] = await this.query('SELECT created_at FROM servers WHERE guild_id = $1');
      if (server) return num(server.created_at);
      // A server with no record yet (a test's store): counted since the store was made.
      return storeCreatedAt(this.db);
    }
  };
}

function toServer(row: Row): ServerRecord {
  return {
    guildId: String(row.guild_id),
    settings: JSON.parse(String(row.settings)) as ServerSettingsRecord,
    sealed: { apiKey: orNull(row.api_key), appId: orNull(row.app_id), webhookToken: orNull(row.webhook_token) },
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
    leftAt: optionalNum(row.left_at) ?? null,
  };
}
