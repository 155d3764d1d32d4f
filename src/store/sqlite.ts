import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Db, Row, SqlValue } from './sql.js';

/**
 * SQLite through better-sqlite3 (synchronous, in-process). Calls are serialised by one queue, so a
 * transaction's statements never interleave with another caller's.
 */
export function openSqlite(file: string): Db {
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // FULL: a delivery acknowledged with 200 is on disk even if the machine loses power after it.
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');

  const run = (sql: string, params: readonly SqlValue[] = []): Row[] => {
    const { text, values } = toSqlite(sql, params);
    const statement = db.prepare(text);
    if (statement.reader) return statement.all(...values) as Row[];
    statement.run(...values);
    return [];
  };
  const direct: Db = {
    dialect: 'sqlite',
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
