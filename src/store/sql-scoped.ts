import type { Db, Row, SqlValue } from './sql.js';

/** Both kinds of store below: on which database, through which driver. */
class OnDb {
  constructor(protected readonly db: Db) {}

  get backend() {
    return this.db.dialect;
  }

  get driver() {
    return this.db.driver;
  }
}

/**
 * One server's rows: every statement carries `guild_id = $1`, the server this store was opened for,
 * so no query can reach another server's rows. Its other parameters start at $2.
 */
export class ServerScoped extends OnDb {
  constructor(
    db: Db,
    readonly guildId: string,
  ) {
    super(db);
  }

  protected query(sql: string, params: readonly SqlValue[] = [], db: Db = this.db): Promise<Row[]> {
    return db.query(sql, [this.guildId, ...params]);
  }

  /** Runs a statement that RETURNs what it changed: true when it changed a row. */
  protected async changed(sql: string, params: readonly SqlValue[] = [], db: Db = this.db): Promise<boolean> {
    return (await this.query(sql, params, db)).length > 0;
  }
}

/** Every server's rows at once: the inbox, the delivery log, the servers themselves. */
export class AllServers extends OnDb {}

// A table's statements are a mixin over one of the bases above: sql-server-store.ts and
// sql-store.ts stack them into one class, so each table's SQL stays in its own file with nothing
// written twice to join them. TypeScript wants a mixin's base to take `any[]` (TS2545).
/* eslint-disable @typescript-eslint/no-explicit-any */
export type ServerScopedClass = new (...args: any[]) => ServerScoped;
export type AllServersClass = new (...args: any[]) => AllServers;
/* eslint-enable @typescript-eslint/no-explicit-any */
