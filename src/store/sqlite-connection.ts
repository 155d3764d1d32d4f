import type { Row, SqlValue } from './sql.js';

type SqliteDriverName = 'node:sqlite' | 'better-sqlite3';

/** One open SQLite database, as much of it as the store uses. SQL here has SQLite's `?` placeholders. */
export interface SqliteConnection {
  /** Runs one statement; the rows it returns (none for a statement that returns no rows). */
  run(sql: string, values: readonly SqlValue[]): Row[];
  exec(sql: string): void;
  /** Closes the database; a second call does nothing. */
  close(): void;
}

export interface SqliteDriver {
  readonly name: SqliteDriverName;
  open(file: string): SqliteConnection;
}

/**
 * `file` opened and set up by `setUp` (its pragmas, its checks). On any failure what was opened is
 * closed again, so no half-set-up connection keeps the file, and `fault` says what is thrown.
 */
export function openSetUp(
  driver: SqliteDriver,
  file: string,
  setUp: (db: SqliteConnection) => void,
  fault: (error: unknown) => unknown,
): SqliteConnection {
  let db: SqliteConnection | undefined;
  try {
    db = driver.open(file);
    setUp(db);
    return db;
  } catch (error) {
    db?.close();
    throw fault(error);
  }
}
