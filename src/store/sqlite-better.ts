import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteConnection, SqliteDriver } from './sqlite-connection.js';
import { statementCache } from './sqlite-statements.js';
import type { Row } from './sql.js';

/**
 * better-sqlite3, or undefined where it is not installed (an optional dependency), did not build, was
 * built for another Node (its native part is loaded here, not at the first open), or is unsafe.
 */
export function loadBetterSqlite3(): SqliteDriver | undefined {
  // Its 12.x line (the last that installs on Node 20) aborts Node 24.19+ whenever the garbage collector
  // frees one of its statements (nodejs/node#65446), so from Node 24 on it counts as absent.
  if (Number(process.versions.node.split('.')[0]) >= 24) return undefined;
  let Database: typeof BetterSqlite3;
  let nativeBinding: object;
  try {
    const require = createRequire(import.meta.url);
    Database = require('better-sqlite3') as typeof BetterSqlite3;
    nativeBinding = require('better-sqlite3/build/Release/better_sqlite3.node') as object;
  } catch {
    return undefined;
  }
  return {
    name: 'better-sqlite3',
    open(file): SqliteConnection {
      // better-sqlite3 takes the loaded addon as nativeBinding too; its types name only a path.
      const db = new Database(file, { nativeBinding: nativeBinding as unknown as string });
      const prepared = statementCache((sql) => db.prepare(sql));
      return {
        run: (sql, values) => {
          const statement = prepared(sql);
          if (statement.reader) return statement.all(...values) as Row[];
          statement.run(...values);
          return [];
        },
        exec: (sql) => {
          db.exec(sql);
        },
        close: () => {
          db.close();
        },
      };
    },
  };
}
