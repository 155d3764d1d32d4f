export type SqlValue = string | number | null;
export type Row = Record<string, unknown>;

/**
 * The little the store needs from a database. SQL is written once with `$1` placeholders and
 * portable types; each backend adapts the rest.
 */
export interface Db {
  readonly dialect: 'sqlite' | 'postgres';
  /** The library that talks to the database, for the start-up log line. */
  readonly driver: 'node:sqlite' | 'better-sqlite3' | 'pg';
  query(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
  /** Runs `work` in one transaction; everything inside uses the handle it is given. */
  transaction<T>(work: (db: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
