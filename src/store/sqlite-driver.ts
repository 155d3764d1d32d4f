import { EXIT_CONFIG } from '../core/exit-codes.js';
import { loadBetterSqlite3 } from './sqlite-better.js';
import { loadNodeSqlite } from './sqlite-node.js';
import type { SqliteDriver } from './sqlite-connection.js';
import { StoreError } from './store-error.js';

/**
 * The drivers, preferred first: Node's built-in node:sqlite (22.13+), then better-sqlite3 for Node 20
 * (and 22 before 22.13); better-sqlite3 12 must not run on Node 24 (see sqlite-better.ts).
 */
const LOADERS = [loadNodeSqlite, loadBetterSqlite3];

/** Every driver this Node can load and run (tests run the store on each: both on Node 22). */
export function sqliteDrivers(): SqliteDriver[] {
  return LOADERS.map((load) => load()).filter((driver) => driver !== undefined);
}

let active: SqliteDriver | undefined;

/** The driver the store uses: the first that loads (a later one is not even loaded). */
export function activeSqliteDriver(): SqliteDriver {
  for (const load of LOADERS) active ??= load();
  if (active === undefined) {
    // EXIT_CONFIG: only an install or another Node mends it, so a supervisor must not restart it.
    throw new StoreError(
      'No SQLite driver: Node 22.13 or newer has one built in (node:sqlite); on Node 20 the better-sqlite3 ' +
        'package must be installed (run npm ci and check that it built), or use a postgres:// DATABASE_URL.',
      EXIT_CONFIG,
    );
  }
  return active;
}
