import type { Db } from './sql.js';

export interface Migration {
  version: number;
  name: string;
  /** Statements in portable SQL; `{id}` becomes each backend's auto-increment key. */
  statements: readonly string[];
}

/** Append only: a released migration never changes, a later one alters what it made. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'events, feed posts, votes, announcements, mirror',
    statements: [
      `CREATE TABLE events (
        id {id},
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        received_at BIGINT NOT NULL,
        handled_at BIGINT
      )`,
      `CREATE INDEX events_pending ON events (id) WHERE handled_at IS NULL`,
      `CREATE TABLE feed_posts (
        review_id TEXT PRIMARY KEY,
        author_id TEXT NOT NULL,
        rating INTEGER NOT NULL,
        content TEXT NOT NULL,
        received_at BIGINT NOT NULL,
        channel_id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        answered_at BIGINT,
        reply_id TEXT,
        answered_by TEXT
      )`,
      `CREATE TABLE votes (
        id {id},
        user_id TEXT NOT NULL,
        voted_at BIGINT NOT NULL,
        is_double INTEGER NOT NULL,
        source TEXT NOT NULL,
        period_ends_at BIGINT NOT NULL,
        announced_at BIGINT,
        message_id TEXT
      )`,
      `CREATE INDEX votes_member_period ON votes (user_id, period_ends_at)`,
      `CREATE INDEX votes_time ON votes (voted_at)`,
      `CREATE INDEX votes_unannounced ON votes (id) WHERE announced_at IS NULL`,
      `CREATE TABLE vote_mirror (
        user_id TEXT PRIMARY KEY,
        expires_at BIGINT NOT NULL,
        via_discord INTEGER NOT NULL
      )`,
      `CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      )`,
    ],
  },
  {
    version: 2,
    name: 'vote expiry schedule',
    statements: [
      // One row per member whose vote is running: when it ends. The voter role (and reminders) act on it.
      `CREATE TABLE vote_expiries (
        user_id TEXT PRIMARY KEY,
        ends_at BIGINT NOT NULL
      )`,
      `CREATE INDEX vote_expiries_due ON vote_expiries (ends_at)`,
    ],
  },
  {
    version: 3,
    name: 'vote reminders',
    statements: [
      // Members who asked (/remind on) to be told when they can vote again, in the language they asked in.
      `CREATE TABLE reminder_optins (
        user_id TEXT PRIMARY KEY,
        locale TEXT NOT NULL,
        opted_in_at BIGINT NOT NULL
      )`,
      // The latest reminder per member: which vote period it was for, so a period is reminded once.
      `CREATE TABLE reminders_sent (
        user_id TEXT PRIMARY KEY,
        ends_at BIGINT NOT NULL,
        at BIGINT NOT NULL,
        outcome TEXT NOT NULL
      )`,
    ],
  },
];

const ID_COLUMN = {
  sqlite: 'INTEGER PRIMARY KEY AUTOINCREMENT',
  postgres: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY',
} as const;

/** Applies every migration newer than the database, each in its own transaction; returns the version. */
export async function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): Promise<number> {
  await db.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at BIGINT NOT NULL
  )`);
  let current = await currentVersion(db);
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    await db.transaction(async (tx) => {
      // Two bots starting on one PostgreSQL database: the second waits, then finds the work done.
      if (tx.dialect === 'postgres') await tx.query('LOCK TABLE schema_migrations IN EXCLUSIVE MODE');
      if ((await currentVersion(tx)) >= migration.version) return;
      for (const statement of migration.statements) await tx.query(statement.replaceAll('{id}', ID_COLUMN[tx.dialect]));
      await tx.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        Date.now(),
      ]);
    });
    current = migration.version;
  }
  return current;
}

export async function currentVersion(db: Db): Promise<number> {
  const [row] = await db.query('SELECT MAX(version) AS version FROM schema_migrations');
  return Number(row?.version ?? 0);
}
