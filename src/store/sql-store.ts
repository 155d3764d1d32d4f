import { INBOX_CHANNEL } from './inbox-channel.js';
import { currentVersion, migrate, SERVER_TABLES } from './migrations.js';
import { num, orNull } from './sql-outbox.js';
import { SqlServerStore } from './sql-server-store.js';
import {
  IDS_PER_STATEMENT,
  placeholders,
  ROWS_PER_INSERT,
  slices,
  valueRows,
  type Db,
  type Row,
  type SqlValue,
} from './sql.js';
import type { ShardSet } from '../shards/ownership.js';
import type {
  DeliveryRecord,
  NewEvent,
  ServerRecord,
  ServerSettingsRecord,
  Store,
  StoredEvent,
  StoreRoot,
  WorkCounts,
} from './types.js';

/** The store over either backend; opens by running any pending migrations. */
export async function sqlStore(db: Db): Promise<StoreRoot> {
  await migrate(db);
  return new SqlStoreRoot(db);
}

class SqlStoreRoot implements StoreRoot {
  constructor(private readonly db: Db) {}

  get backend() {
    return this.db.dialect;
  }

  get driver() {
    return this.db.driver;
  }

  schemaVersion() {
    return currentVersion(this.db);
  }

  async createdAt(): Promise<number> {
    const [row] = await this.db.query('SELECT applied_at FROM schema_migrations WHERE version = 1');
    return num(row!.applied_at);
  }

  forServer(guildId: string): Store {
    return new SqlServerStore(this.db, guildId);
  }

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
    return rows.map((row) => ({
      id: num(row.id),
      guildId: String(row.guild_id),
      kind: String(row.kind),
      payload: JSON.parse(String(row.payload)) as unknown,
      receivedAt: num(row.received_at),
      attempts: num(row.attempts),
    }));
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
    return row?.next === null || row?.next === undefined ? undefined : num(row.next);
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

  async workCounts(): Promise<WorkCounts> {
    const [row] = await this.db.query(
      `SELECT
         (SELECT COUNT(*) FROM events WHERE handled_at IS NULL) AS events,
         (SELECT COUNT(*) FROM votes WHERE announced_at IS NULL) AS votes,
         (SELECT COUNT(*) FROM feed_posts WHERE message_id IS NULL) AS reviews,
         (SELECT COUNT(*) FROM feed_posts WHERE edit_due > 0 AND message_id IS NOT NULL) AS edits,
         (SELECT COUNT(*) FROM parked_lanes) AS parked_lanes,
         (SELECT COUNT(*) FROM posts WHERE parked IS NOT NULL) AS parked_posts`,
    );
    return {
      events: num(row!.events),
      votes: num(row!.votes),
      reviews: num(row!.reviews),
      edits: num(row!.edits),
      parkedLanes: num(row!.parked_lanes),
      parkedPosts: num(row!.parked_posts),
    };
  }

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
               SELECT id, ROW_NUMBER() OVER (PARTITION BY guild_id ORDER BY at DESC, id DESC) AS newest
               FROM deliveries WHERE guild_id IN (${list})
             ) AS ranked WHERE newest > $1)`,
          [keep, ...slice],
        );
      }
    });
  }

  async server(guildId: string): Promise<ServerRecord | undefined> {
    const [row] = await this.db.query('SELECT * FROM servers WHERE guild_id = $1', [guildId]);
    return row && toServer(row);
  }

  async servers(): Promise<ServerRecord[]> {
    return (await this.db.query('SELECT * FROM servers ORDER BY guild_id')).map(toServer);
  }

  async saveServer(record: ServerRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO servers (guild_id, settings, api_key, app_id, webhook_token, created_at, updated_at, left_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings, api_key = excluded.api_key,
         app_id = excluded.app_id, webhook_token = excluded.webhook_token, updated_at = excluded.updated_at,
         left_at = excluded.left_at`,
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
    });
  }

  adoptUnowned(guildId: string): Promise<number> {
    return this.db.transaction(async (tx) => {
      let moved = 0;
      for (const table of SERVER_TABLES)
        moved += (await tx.query(`UPDATE ${table} SET guild_id = $1 WHERE guild_id = '' RETURNING guild_id`, [guildId]))
          .length;
      return moved;
    });
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

function toServer(row: Row): ServerRecord {
  return {
    guildId: String(row.guild_id),
    settings: JSON.parse(String(row.settings)) as ServerSettingsRecord,
    sealed: { apiKey: orNull(row.api_key), appId: orNull(row.app_id), webhookToken: orNull(row.webhook_token) },
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
    leftAt: row.left_at === null || row.left_at === undefined ? null : num(row.left_at),
  };
}

/**
 * ` AND` the event's server is on one of these shards, by Discord's rule `(guild id >> 22) % count`
 * (a division, which both SQLite and PostgreSQL do on 64-bit integers); nothing for every shard.
 */
function shardFilter(shards: ShardSet | undefined, firstParam: number): { sql: string; params: SqlValue[] } {
  if (!shards || shards.ids.length >= shards.count) return { sql: '', params: [] };
  const list = placeholders(shards.ids.length, firstParam + 1);
  return {
    sql: ` AND (CAST(guild_id AS BIGINT) / 4194304) % $${firstParam} IN (${list})`,
    params: [shards.count, ...shards.ids],
  };
}
