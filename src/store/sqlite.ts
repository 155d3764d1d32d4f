import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { activeSqliteDriver, type SqliteDriver } from './sqlite-driver.js';
import type { Db, SqlValue } from './sql.js';

/**
 * SQLite, synchronous and in-process, through the driver `sqlite-driver.ts` picks. Calls are
 * serialised by one queue, so a transaction's statements never interleave with another caller's.
 */
export function openSqlite(file: string, driver: SqliteDriver = activeSqliteDriver()): Db {
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = driver.open(file);
  db.exec('PRAGMA journal_mode = WAL');
  // FULL: a delivery acknowledged with 200 is on disk even if the machine loses power after it.
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA foreign_keys = ON');

  const run = (sql: string, params: readonly SqlValue[] = []) => {
    const { text, values } = toSqlite(sql, params);
    return db.run(text, values);
  };
  const direct: Db = {
    dialect: 'sqlite',
    driver: driver.name,
    query: async (sql, params) => run(sql, params),
    transaction: (work) => work(direct),
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
    transaction: (work) =>
      serial(async () => {
        db.exec('BEGIN IMMEDIATE');
        try {
          const result = await work(direct);
          db.exec('COMMIT');
          return result;
        } catch (error) {
          db.exec('ROLLBACK');
          throw error;
        }
      }),
    close: () =>
      serial(async () => {
        db.close();
      }),
  };
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
