import { INBOX_CHANNEL } from './inbox-channel.js';
import type { DeliveryHistoryStore } from './ports.js';
import type { EventStore } from './root-ports.js';
import {
  IDS_PER_STATEMENT,
  num,
  optionalNum,
  placeholders,
  ROWS_PER_INSERT,
  slices,
  valueRows,
  type Row,
} from './sql.js';
import type { AllServersClass, ServerScopedClass } from './sql-scoped.js';
import { shardFilter } from './shard-filter.js';
import type { ShardSet } from '../shards/ownership.js';
import type { NewEvent, StoredEvent } from './root-types.js';

/**
 * The webhook inbox (events): every server's accepted deliveries, kept until each is handled, then
 * until the retention pass (runtime/event-retention.ts) drops them.
 */
export function sqlEvents<Base extends AllServersClass>(base: Base) {
  return class SqlEvents extends base implements EventStore {
    async addEvent(guildId: string, kind: string, payload: unknown, receivedAt: number): Promise<number> {
      const [id] = await this.addEvents([{ guildId, kind, payload, receivedAt }]);
      return id!;
    }

    async addEvents(events: readonly NewEvent[]): Promise<number[]> {
      const ids: number[] = [];
      for (const slice of slices(events, ROWS_PER_INSERT)) {
        const insert = `INSERT INTO events (guild_id, kind, payload, received_at)
          VALUES ${valueRows(slice.length, 4, 1)}
          RETURNING id, guild_id`;
        // On PostgreSQL the owning process may be another one: one statement stores the events and
        // wakes its listeners when that commits (never before), naming only the server.
        const rows = await this.db.query(
          this.db.dialect === 'postgres'
            ? `WITH stored AS (${insert}) SELECT id, pg_notify('${INBOX_CHANNEL}', guild_id) FROM stored`
            : insert,
          slice.flatMap((event) => [event.guildId, event.kind, JSON.stringify(event.payload), event.receivedAt]),
        );
        // Ids are handed out in the order the rows are given.
        ids.push(...rows.map((row) => num(row.id)).sort((a, b) => a - b));
      }
      return ids;
    }

    async pendingEvents(limit: number, now = Number.MAX_SAFE_INTEGER, shards?: ShardSet): Promise<StoredEvent[]> {
      const onShards = shardFilter(shards, 3);
      const rows = await this.db.query(
        `SELECT id, guild_id, kind, payload, received_at, attempts FROM events
         WHERE handled_at IS NULL AND next_at <= $2${onShards.sql} ORDER BY id LIMIT $1`,
        [limit, now, ...onShards.params],
      );
      return rows.map(toStoredEvent);
    }

    async deferEvent(id: number, attempts: number, nextAt: number): Promise<void> {
      await this.db.query('UPDATE events SET attempts = $2, next_at = $3 WHERE id = $1', [id, attempts, nextAt]);
    }

    async nextEventDue(shards?: ShardSet): Promise<number | undefined> {
      const onShards = shardFilter(shards, 1);
      const [row] = await this.db.query(
        `SELECT MIN(next_at) AS next FROM events WHERE handled_at IS NULL${onShards.sql}`,
        onShards.params,
      );
      return optionalNum(row?.next);
    }

    async markEventHandled(id: number, at: number): Promise<void> {
      await this.markEventsHandled([id], at);
    }

    async markEventsHandled(ids: readonly number[], at: number): Promise<void> {
      for (const slice of slices(ids, IDS_PER_STATEMENT)) {
        await this.db.query(`UPDATE events SET handled_at = $1 WHERE id IN (${placeholders(slice.length, 2)})`, [
          at,
          ...slice,
        ]);
      }
    }

    async dropHandledEvents(before: number, limit: number, shards?: ShardSet): Promise<number> {
      const onShards = shardFilter(shards, 3);
      // The newest event of a server stays, whatever its age: /setup status shows when it came.
      const rows = await this.db.query(
        `DELETE FROM events WHERE id IN (
           SELECT id FROM events AS old
           WHERE handled_at IS NOT NULL AND handled_at < $1${onShards.sql}
             AND EXISTS (SELECT 1 FROM events AS newer
                         WHERE newer.guild_id = old.guild_id AND newer.received_at > old.received_at)
           ORDER BY handled_at LIMIT $2)
         RETURNING id`,
        [before, limit, ...onShards.params],
      );
      return rows.length;
    }
  };
}

/** One server's side of the inbox: when its latest delivery came. */
export function sqlServerEvents<Base extends ServerScopedClass>(base: Base) {
  return class SqlServerEvents extends base implements Pick<DeliveryHistoryStore, 'lastDeliveryAt'> {
    async lastDeliveryAt(): Promise<number | undefined> {
      const [row] = await this.query('SELECT MAX(received_at) AS last FROM events WHERE guild_id = $1');
      return optionalNum(row?.last);
    }
  };
}

function toStoredEvent(row: Row): StoredEvent {
  return {
    id: num(row.id),
    guildId: String(row.guild_id),
    kind: String(row.kind),
    payload: JSON.parse(String(row.payload)) as unknown,
    receivedAt: num(row.received_at),
    attempts: num(row.attempts),
  };
}
