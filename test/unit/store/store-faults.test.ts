import { describe, expect, it } from '@jest/globals';
import { postgresStoreError } from '../../../src/store/postgres-faults.js';
import { sqliteFault, sqliteStoreError } from '../../../src/store/sqlite-faults.js';
import { StoreError } from '../../../src/store/store-error.js';

/** An error shaped as node:sqlite throws it (Node 22.13+): the extended result code as `errcode`. */
const nodeSqliteError = (message: string, errcode: number) =>
  Object.assign(new Error(message), { code: 'ERR_SQLITE_ERROR', errcode, errstr: message });
/** An error shaped as better-sqlite3 throws it: the result code's name as `code`. */
const betterSqliteError = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('SQLite failures', () => {
  it('are told apart on both drivers, extended codes included', () => {
    expect(sqliteFault(nodeSqliteError('database or disk is full', 13))).toBe('full');
    expect(sqliteFault(betterSqliteError('database or disk is full', 'SQLITE_FULL'))).toBe('full');
    expect(sqliteFault(nodeSqliteError('database is locked', 261))).toBe('busy');
    expect(sqliteFault(betterSqliteError('disk I/O error', 'SQLITE_IOERR_WRITE'))).toBe('io');
    expect(sqliteFault(nodeSqliteError('file is not a database', 26))).toBe('damaged');
    expect(sqliteFault(betterSqliteError('database disk image is malformed', 'SQLITE_CORRUPT'))).toBe('damaged');
    expect(sqliteFault(betterSqliteError('attempt to write a readonly database', 'SQLITE_READONLY_DBMOVED'))).toBe(
      'read-only',
    );
    expect(sqliteFault(nodeSqliteError('UNIQUE constraint failed: votes.id', 2067))).toBeUndefined();
    expect(sqliteFault(new Error('something else'))).toBeUndefined();
  });

  it('become StoreErrors naming the file and DATABASE_URL; others pass through untouched', () => {
    const full = sqliteStoreError(nodeSqliteError('database or disk is full', 13), 'data/bot.sqlite') as StoreError;
    expect(full).toBeInstanceOf(StoreError);
    expect(full.message).toBe(
      'The disk holding the store data/bot.sqlite (DATABASE_URL) is full (database or disk is full): free space there, or set DATABASE_URL to a file on a disk with room.',
    );
    expect(full.exitCode).toBe(1);
    const readOnly = sqliteStoreError(
      betterSqliteError('attempt to write a readonly database', 'SQLITE_READONLY'),
      'x',
    );
    expect((readOnly as StoreError).exitCode).toBe(78);
    const constraint = nodeSqliteError('UNIQUE constraint failed', 2067);
    expect(sqliteStoreError(constraint, 'x')).toBe(constraint);
  });
});

describe('PostgreSQL failures', () => {
  const url = 'postgres://bot:hunter2-secret@db.internal:5432/bot?sslmode=require';
  const pgError = (message: string, code: string) => Object.assign(new Error(message), { code });

  it('name DATABASE_URL without its password, and stop restarts only when no retry can help', () => {
    const login = postgresStoreError(pgError('password authentication failed for user "bot"', '28P01'), url);
    expect(login.message).toBe(
      'PostgreSQL at postgres://bot@db.internal:5432/bot (DATABASE_URL) refused the login (password authentication failed for user "bot" (28P01)): fix the user name or password in DATABASE_URL, or the server\'s pg_hba.conf.',
    );
    expect(login.exitCode).toBe(78);
    const refused = postgresStoreError(pgError('connect ECONNREFUSED 10.0.0.5:5432', 'ECONNREFUSED'), url);
    expect(refused.exitCode).toBe(1);
    expect(refused.message).toMatch(
      /does not answer .*: start PostgreSQL, or fix the host and port in DATABASE_URL\.$/,
    );
    const starting = postgresStoreError(pgError('the database system is starting up', '57P03'), url);
    expect(starting.exitCode).toBe(1);
    for (const error of [login, refused, starting]) expect(error.message).not.toContain('hunter2');
  });
});
