import type { SqliteConnection, SqliteDriver } from './sqlite-connection.js';
import { statementCache } from './sqlite-statements.js';
import type { Row, SqlValue } from './sql.js';

/** The part of node:sqlite the store uses (its types are not in @types/node 20). */
interface NodeSqlite {
  DatabaseSync: new (file: string) => {
    exec(sql: string): void;
    prepare(sql: string): { all(...values: SqlValue[]): Row[] };
    close(): void;
  };
}

const EXPERIMENTAL_NOTICE = 'SQLite is an experimental feature';

/** Node's built-in SQLite (DatabaseSync), or undefined where this Node has none (20; 22 before 22.13). */
export function loadNodeSqlite(): SqliteDriver | undefined {
  const sqlite = withoutExperimentalNotice(() => process.getBuiltinModule?.('node:sqlite') as NodeSqlite | undefined);
  if (sqlite === undefined) return undefined;
  return {
    name: 'node:sqlite',
    open(file): SqliteConnection {
      const db = new sqlite.DatabaseSync(file);
      const prepared = statementCache((sql) => db.prepare(sql));
      let open = true;
      return {
        // all() also runs statements that return no rows, and then returns [].
        run: (sql, values) =>
          prepared(sql)
            .all(...values)
            .map((row) => ({ ...row })),
        exec: (sql) => db.exec(sql),
        close: () => {
          if (open) db.close();
          open = false;
        },
      };
    },
  };
}

/**
 * Node 22 and 24 print an ExperimentalWarning when node:sqlite loads. It would greet every admin at
 * start on the recommended versions though the driver is tested here, so this one notice (and no other
 * warning) is dropped while the module loads.
 */
function withoutExperimentalNotice<T>(load: () => T): T {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (text.startsWith(EXPERIMENTAL_NOTICE)) return;
    return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return load();
  } finally {
    process.emitWarning = emitWarning;
  }
}
