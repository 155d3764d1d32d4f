import type { ApiKeyStore } from './root-ports.js';
import { num } from './sql.js';
import type { AllServersClass } from './sql-scoped.js';
import type { ApiKeyRecord } from './root-types.js';

/** The vote API's keys (api_keys): each server's, found by the hash of the key a request carries. */
export function sqlApiKeys<Base extends AllServersClass>(base: Base) {
  return class SqlApiKeys extends base implements ApiKeyStore {
    async apiKeys(guildId: string): Promise<ApiKeyRecord[]> {
      const rows = await this.db.query(
        'SELECT guild_id, name, key_hash, last4, created_at, created_by FROM api_keys WHERE guild_id = $1 ORDER BY created_at, name',
        [guildId],
      );
      return rows.map(toRecord);
    }

    async apiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
      const [row] = await this.db.query(
        'SELECT guild_id, name, key_hash, last4, created_at, created_by FROM api_keys WHERE key_hash = $1',
        [keyHash],
      );
      return row && toRecord(row);
    }

    async addApiKey(record: ApiKeyRecord, most: number): Promise<'added' | 'taken' | 'full'> {
      return this.db.transaction(async (tx) => {
        const [held] = await tx.query(
          'SELECT COUNT(*) AS keys, SUM(CASE WHEN name = $2 THEN 1 ELSE 0 END) AS named FROM api_keys WHERE guild_id = $1',
          [record.guildId, record.name],
        );
        if (num(held?.named ?? 0) > 0) return 'taken';
        if (num(held?.keys ?? 0) >= most) return 'full';
        // Two creates of one name at once: the second finds the row the first wrote.
        const added = await tx.query(
          `INSERT INTO api_keys (guild_id, name, key_hash, last4, created_at, created_by)
           VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (guild_id, name) DO NOTHING RETURNING name`,
          [record.guildId, record.name, record.keyHash, record.last4, record.createdAt, record.createdBy],
        );
        return added.length > 0 ? 'added' : 'taken';
      });
    }

    async removeApiKey(guildId: string, name: string): Promise<ApiKeyRecord | undefined> {
      const [row] = await this.db.query(
        'DELETE FROM api_keys WHERE guild_id = $1 AND name = $2 RETURNING guild_id, name, key_hash, last4, created_at, created_by',
        [guildId, name],
      );
      return row && toRecord(row);
    }
  };
}

function toRecord(row: Record<string, unknown>): ApiKeyRecord {
  return {
    guildId: String(row.guild_id),
    name: String(row.name),
    keyHash: String(row.key_hash),
    last4: String(row.last4),
    createdAt: num(row.created_at),
    createdBy: String(row.created_by),
  };
}
