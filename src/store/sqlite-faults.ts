import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { EXIT_CONFIG, EXIT_FAILURE } from '../core/exit-codes.js';
import { causeText, StoreError } from './store-error.js';

/** The SQLite failures an operator can act on, by SQLite's primary result code. */
export type SqliteFault = 'busy' | 'read-only' | 'io' | 'damaged' | 'full' | 'cannot-open';

const BY_NUMBER: Readonly<Record<number, SqliteFault>> = {
  5: 'busy',
  8: 'read-only',
  10: 'io',
  11: 'damaged',
  13: 'full',
  14: 'cannot-open',
  // SQLITE_NOTADB: the header page is gone.
  26: 'damaged',
};
const BY_NAME: Readonly<Record<string, SqliteFault>> = {
  SQLITE_BUSY: 'busy',
  SQLITE_READONLY: 'read-only',
  SQLITE_IOERR: 'io',
  SQLITE_CORRUPT: 'damaged',
  SQLITE_FULL: 'full',
  SQLITE_CANTOPEN: 'cannot-open',
  SQLITE_NOTADB: 'damaged',
};

/** Which fault a driver error is: node:sqlite gives the extended code as `errcode`, better-sqlite3 its name as `code`. */
export function sqliteFault(error: unknown): SqliteFault | undefined {
  const e = error as { errcode?: unknown; code?: unknown } | null;
  if (typeof e?.errcode === 'number') return BY_NUMBER[e.errcode & 0xff];
  // Extended names add a suffix to the primary one: SQLITE_IOERR_WRITE, SQLITE_READONLY_DBMOVED.
  if (typeof e?.code === 'string') return BY_NAME[e.code.split('_').slice(0, 2).join('_')];
  return undefined;
}

/** A StoreError for the faults an operator can act on; any other error as it came. */
export function sqliteStoreError(error: unknown, file: string): unknown {
  if (error instanceof StoreError) return error;
  const fault = sqliteFault(error);
  if (fault === undefined) return error;
  const cause = causeText(error);
  const store = `the store ${file} (DATABASE_URL)`;
  const make = (message: string, exitCode: number) => new StoreError(message, exitCode, { cause: error });
  switch (fault) {
    case 'full':
      return make(
        `The disk holding ${store} is full (${cause}): free space there, or set DATABASE_URL to a file on a disk with room.`,
        EXIT_FAILURE,
      );
    case 'damaged':
      return damagedStore(file, cause, error);
    case 'cannot-open':
      return make(
        `Could not open ${store} (${cause}): check that its folder exists and the bot's user may write there, or change DATABASE_URL.`,
        EXIT_CONFIG,
      );
    case 'read-only':
      return make(
        `Cannot write to ${store} (${cause}): give the bot's user write access to the file and its folder.`,
        EXIT_CONFIG,
      );
    case 'io':
      return make(`Reading or writing ${store} failed (${cause}): check the disk and its free space.`, EXIT_FAILURE);
    case 'busy':
      return make(
        `Another process keeps ${store} locked (${cause}): stop it, or give this bot its own DATABASE_URL.`,
        EXIT_FAILURE,
      );
  }
}

/** A damaged file stays damaged whatever the restarts: the operator puts back a backup or starts empty. */
export function damagedStore(file: string, cause: string, error?: unknown): StoreError {
  return new StoreError(
    `The store ${file} (DATABASE_URL) is damaged (${cause}). Stop the bot, then put back a backup copy of ${file}, or move it away (with any ${file}-wal and ${file}-shm beside it) to start with an empty store.`,
    EXIT_CONFIG,
    error === undefined ? undefined : { cause: error },
  );
}

/** File-system codes that mean the folder cannot be made or written as configured; a restart would fail the same way. */
const FOLDER_REFUSED = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST']);

/** Makes the folder `file` goes in; a refusal names DATABASE_URL and says why, not a bare `mkdir` error. */
export function makeStoreFolder(file: string): void {
  const folder = path.dirname(path.resolve(file));
  try {
    mkdirSync(folder, { recursive: true });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const why =
      code === 'ENOTDIR' || code === 'EEXIST'
        ? 'part of its path is a file, not a folder'
        : code === 'EROFS'
          ? 'the file system is read-only'
          : "the bot's user may not write there";
    throw new StoreError(
      `Could not make the folder ${folder} for the store ${file} (DATABASE_URL): ${why} (${causeText(error)}). Create the folder and give the bot's user write access, or set DATABASE_URL to a file in a folder it may write.`,
      typeof code === 'string' && FOLDER_REFUSED.has(code) ? EXIT_CONFIG : EXIT_FAILURE,
      { cause: error },
    );
  }
}
