import { existsSync } from 'node:fs';
import type { DatabaseTarget } from './database-url.js';
import { storeOpenError } from './index.js';
import { currentVersion, MIGRATIONS } from './migrations.js';
import { openPostgres } from './postgres.js';
import type { Db } from './sql.js';
import { openSqlite } from './sqlite.js';

export interface StoreInspection {
  /** A SQLite file not made yet: the bot makes it at its first start. */
  readonly fresh: boolean;
  /** The schema the store has, and the one this build would migrate it to at start. */
  readonly version: number;
  readonly latest: number;
}

const LATEST = Math.max(...MIGRATIONS.map((m) => m.version));

/** Undone on purpose: the write is tried, never kept. */
class RolledBack extends Error {}

/**
 * What `npm run doctor` needs to know of the store, changing nothing: that it opens, how far its
 * schema is from this build's, and that a write would go through (tried in a transaction rolled
 * back). Failures are the StoreErrors a start would stop with, naming DATABASE_URL.
 */
export async function inspectStore(target: DatabaseTarget): Promise<StoreInspection> {
  if (target.kind === 'sqlite' && target.file !== ':memory:' && !existsSync(target.file))
    return { fresh: true, version: 0, latest: LATEST };
  let db: Db | undefined;
  try {
    db = target.kind === 'postgres' ? openPostgres(target.url) : openSqlite(target.file);
    const version = await schemaVersionOf(db);
    await db
      .transaction(async (tx) => {
        await tx.query('CREATE TABLE doctor_write_check (id INTEGER)');
        throw new RolledBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
    return { fresh: false, version, latest: LATEST };
  } catch (error) {
    throw storeOpenError(error, target);
  } finally {
    await db?.close().catch(() => undefined);
  }
}

/** 0 for a database the bot never migrated (no schema_migrations table yet). */
async function schemaVersionOf(db: Db): Promise<number> {
  const table =
    db.dialect === 'sqlite'
      ? await db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
      : await db.query("SELECT to_regclass('schema_migrations') AS name");
  return table[0]?.name ? currentVersion(db) : 0;
}
