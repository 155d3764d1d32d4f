import { activeSqliteDriver } from './sqlite-driver.js';
import { openSetUp, type SqliteConnection, type SqliteDriver } from './sqlite-connection.js';
import { damagedStore, makeStoreFolder, sqliteStoreError } from './sqlite-faults.js';
import type { Db, SqlValue } from './sql.js';

/**
 * SQLite, synchronous and in-process, through the driver `sqlite-driver.ts` picks. Calls are
 * serialised by one queue, so a transaction's statements never interleave with another caller's.
 * A damaged file is refused at open; failures an operator can act on (a full disk, a damaged or
 * read-only file) are thrown as StoreErrors naming the file and DATABASE_URL.
 */
export function openSqlite(file: string, driver: SqliteDriver = activeSqliteDriver()): Db {
  const db = openChecked(file, driver);
  const fail = (error: unknown) => sqliteStoreError(error, file);

  const run = (sql: string, params: readonly SqlValue[] = []) => {
    const { text, values } = toSqlite(sql, params);
    try {
      return db.run(text, values);
    } catch (error) {
      throw fail(error);
    }
  };
  const direct: Db = {
    dialect: 'sqlite',
    driver: driver.name,
    query: async (sql, params) => run(sql, params),
    transaction: async (work, opening) => {
      if (opening !== undefined) run(opening);
      return work(direct);
    },
    close: async () => undefined,
  };

  let tail: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const result = tail.then(task, task);
    tail = result.catch(() => undefined);
    return result;
  };

  return {
    dialect: 'sqlite',
    driver: driver.name,
    query: (sql, params) => serial(async () => run(sql, params)),
    transaction: (work, opening) =>
      serial(async () => {
        try {
          db.exec('BEGIN IMMEDIATE');
        } catch (error) {
          throw fail(error);
        }
        try {
          if (opening !== undefined) db.exec(opening);
          const result = await work(direct);
          db.exec('COMMIT');
          return result;
        } catch (error) {
          // SQLite ends the transaction itself on some failures (a full disk among them); its
          // "cannot rollback - no transaction is active" would then hide the real cause.
          try {
            db.exec('ROLLBACK');
          } catch {
            // already rolled back
          }
          throw fail(error);
        }
      }),
    close: () =>
      serial(async () => {
        db.close();
      }),
  };
}

function openChecked(file: string, driver: SqliteDriver): SqliteConnection {
  if (file !== ':memory:') makeStoreFolder(file);
  const setUp = (db: SqliteConnection) => {
    db.exec('PRAGMA journal_mode = WAL');
    // FULL: a delivery acknowledged with 200 is on disk even if the machine loses power after it.
    db.exec('PRAGMA synchronous = FULL');
    db.exec('PRAGMA busy_timeout = 5000');
    db.exec('PRAGMA foreign_keys = ON');
    // A damaged file otherwise opens, logs ready, then fails every write: refuse it at start instead.
    // quick_check reads every page (seconds for a large file) but skips the slower index cross-checks.
    const problems = db.run('PRAGMA quick_check', []).map((row) => String(Object.values(row)[0]));
    if (problems.length !== 1 || problems[0] !== 'ok')
      throw damagedStore(file, `quick_check: ${problems.slice(0, 3).join('; ')}`);
  };
  return openSetUp(driver, file, setUp, (error) => sqliteStoreError(error, file));
}

/** `$1`-style placeholders (written once for both backends) to SQLite's positional `?`. */
function toSqlite(sql: string, params: readonly SqlValue[]): { text: string; values: SqlValue[] } {
  const values: SqlValue[] = [];
  const text = sql.replace(/\$(\d+)/g, (_, n: string) => {
    values.push(params[Number(n) - 1] ?? null);
    return '?';
  });
  return { text, values };
}
