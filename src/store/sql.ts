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
  /**
   * Runs `work` in one transaction; everything inside uses the handle it is given. `opening`: a
   * statement with no parameters run first, in BEGIN's round trip on PostgreSQL.
   */
  transaction<T>(work: (db: Db) => Promise<T>, opening?: string): Promise<T>;
  close(): Promise<void>;
}

/**
 * Values one statement binds at most, as whole rows or as a list of ids: far inside SQLite's 32,766
 * and PostgreSQL's 65,535 parameters, so a long list is cut into several statements, not refused.
 */
/**
 * A member's votes up to a time, by the member's index: `+` keeps the time off every index, or SQLite
 * (no statistics) takes the server's votes by time (`votes_time`) and reads each one to find the
 * member's: 285 µs a call with 900 votes in the server, growing with them. `$n`s: server, member, time.
 */
export const memberVotesBefore = (guild: string, member: string, comparison: string): string =>
  `guild_id = ${guild} AND user_id = ${member} AND +voted_at ${comparison}`;

export const ROWS_PER_INSERT = 200;
export const IDS_PER_STATEMENT = 500;

/** `$from, $from+1, …`: `count` placeholders, for an IN list. */
export function placeholders(count: number, from: number): string {
  return Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ');
}

/**
 * `(…), (…)`: `rows` rows of VALUES, each of `width` placeholders numbered on from `from`, each led
 * by `lead` when given (e.g. `$1`, the server id every row shares).
 */
export function valueRows(rows: number, width: number, from: number, lead?: string): string {
  return Array.from({ length: rows }, (_, row) => {
    const own = placeholders(width, from + row * width);
    return `(${lead === undefined ? own : `${lead}, ${own}`})`;
  }).join(', ');
}

/** `items` in consecutive slices of at most `size`. */
export function* slices<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let from = 0; from < items.length; from += size) yield items.slice(from, from + size);
}

/** A column's value as a number, whichever type the driver gave it (PostgreSQL's sums come as text). */
/** One statement run once for each row of values, all in one transaction (re-sealed secrets: each row its own). */
export function updateEach(db: Db, statement: string, rows: readonly SqlValue[][]): Promise<void> {
  return db.transaction(async (tx) => {
    for (const params of rows) await tx.query(statement, params);
  });
}

export const num = (value: unknown): number => Number(value);

/** A nullable text column's value. */
export const orNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

/** A nullable number column's value (an aggregate over no rows among them). */
export const optionalNum = (value: unknown): number | undefined =>
  value === null || value === undefined ? undefined : num(value);
