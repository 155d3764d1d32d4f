import type { ForwardDestinationStore } from './root-ports.js';
import { num, optionalNum, updateEach, type Row } from './sql.js';
import type { AllServersClass } from './sql-scoped.js';
import type { ForwardDestinationRecord, ForwardResult } from './root-types.js';

type SavedDestination = Pick<
  ForwardDestinationRecord,
  'guildId' | 'id' | 'url' | 'secret' | 'secretEnd' | 'fromEnvironment' | 'createdAt'
>;

/** The places each server's votes are forwarded to (forward_destinations), with how the last send went. */
export function sqlForwardDestinations<Base extends AllServersClass>(base: Base) {
  return class SqlForwardDestinations extends base implements ForwardDestinationStore {
    async forwardDestinations(guildId?: string): Promise<ForwardDestinationRecord[]> {
      const waiting =
        '(SELECT COUNT(*) FROM forward_outbox o WHERE o.guild_id = d.guild_id AND o.destination_id = d.id)';
      const rows =
        guildId === undefined
          ? await this.db.query(
              `SELECT d.*, ${waiting} AS waiting FROM forward_destinations d ORDER BY d.guild_id, d.id`,
            )
          : await this.db.query(
              `SELECT d.*, ${waiting} AS waiting FROM forward_destinations d WHERE d.guild_id = $1
               ORDER BY d.created_at, d.id`,
              [guildId],
            );
      return rows.map(toDestination);
    }

    async saveForwardDestination(record: SavedDestination): Promise<void> {
      // A new secret starts the log afresh: what the old one's sends did is not this one's.
      await this.db.query(
        `INSERT INTO forward_destinations (guild_id, id, url, secret, secret_end, from_env, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (guild_id, id) DO UPDATE SET url = excluded.url, secret = excluded.secret,
           secret_end = excluded.secret_end, last_at = NULL, last_result = NULL, failing_since = NULL`,
        [
          record.guildId,
          record.id,
          record.url,
          record.secret,
          record.secretEnd,
          record.fromEnvironment ? 1 : 0,
          record.createdAt,
        ],
      );
    }

    removeForwardDestination(guildId: string, id: string): Promise<boolean> {
      return this.db.transaction(async (tx) => {
        await tx.query('DELETE FROM forward_outbox WHERE guild_id = $1 AND destination_id = $2', [guildId, id]);
        const gone = await tx.query('DELETE FROM forward_destinations WHERE guild_id = $1 AND id = $2 RETURNING id', [
          guildId,
          id,
        ]);
        return gone.length > 0;
      });
    }

    resealForwardDestinations(records: ReadonlyArray<Pick<SavedDestination, 'guildId' | 'id' | 'secret'>>) {
      return updateEach(
        this.db,
        'UPDATE forward_destinations SET secret = $3 WHERE guild_id = $1 AND id = $2',
        records.map((record) => [record.guildId, record.id, record.secret]),
      );
    }
  };
}

function toDestination(row: Row): ForwardDestinationRecord {
  return {
    guildId: String(row.guild_id),
    id: String(row.id),
    url: String(row.url),
    secret: row.secret === null || row.secret === undefined ? null : String(row.secret),
    secretEnd: String(row.secret_end),
    fromEnvironment: num(row.from_env) === 1,
    createdAt: num(row.created_at),
    lastAt: optionalNum(row.last_at) ?? null,
    lastResult: row.last_result ? (JSON.parse(String(row.last_result)) as ForwardResult) : null,
    failingSince: optionalNum(row.failing_since) ?? null,
    waiting: num(row.waiting),
  };
}
