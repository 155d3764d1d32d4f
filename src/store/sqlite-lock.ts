import { EXIT_FAILURE } from '../core/exit-codes.js';
import { activeSqliteDriver } from './sqlite-driver.js';
import { openSetUp, type SqliteConnection, type SqliteDriver } from './sqlite-connection.js';
import { makeStoreFolder, sqliteFault, sqliteStoreError } from './sqlite-faults.js';
import { StoreError } from './store-error.js';
import type { StoreLock } from './store-lock.js';

/**
 * One process per SQLite file: an exclusive SQLite lock on `<file>.lock`, held for the life of this
 * process. SQLite's locks are the operating system's, dropped when the process ends however it
 * ends (SIGKILL too), so nothing can go stale the way a pid file does. A second process finds the
 * lock taken and refuses to start; a supervisor's next restart after the holder is gone succeeds.
 * A separate file, so backups and the sqlite3 shell can still read the store while the bot runs.
 */
export function lockSqliteFile(file: string, driver: SqliteDriver = activeSqliteDriver()): StoreLock {
  const lockFile = `${file}.lock`;
  makeStoreFolder(file);
  const setUp = (db: SqliteConnection) => {
    // Refuse at once rather than wait: the holder may run for months.
    db.exec('PRAGMA busy_timeout = 0');
    // Once written to, the file stays locked until this connection closes.
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    db.exec('PRAGMA journal_mode = MEMORY');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS held (since INTEGER)');
    db.exec('COMMIT');
  };
  const held = openSetUp(driver, lockFile, setUp, (error) =>
    sqliteFault(error) === 'busy'
      ? new StoreError(
          `Another process holds the store ${file} (DATABASE_URL): its lock ${lockFile} is taken. One bot runs on a SQLite file at a time: stop the other one (it may still be shutting down), or give this one its own DATABASE_URL.`,
          EXIT_FAILURE,
          { cause: error },
        )
      : sqliteStoreError(error, file),
  );
  return {
    release: async () => held.close(),
  };
}
