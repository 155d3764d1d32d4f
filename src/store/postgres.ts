import pg from 'pg';
import type { Db, Row, SqlValue } from './sql.js';
import { DEFAULT_POOL_SIZE } from './database-url.js';

// BIGINT (int8) columns hold millisecond times, well inside Number's exact range.
const INT8 = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * How long the store waits on PostgreSQL. A statement runs at most 10 s on the server; the client
 * gives up after 12 s even when the server does not answer at all (frozen, or the network gone
 * silent); a connection from the pool is waited for 5 s. Callers a member waits on have their own,
 * shorter deadline (within.ts); these bound everything else, so no loop hangs on a dead database.
 */
export const POSTGRES_TIMEOUTS = { statementMs: 10_000, queryMs: 12_000, checkoutMs: 5_000 } as const;

/** Connections a pool keeps at most unless DATABASE_POOL_SIZE says otherwise. */

/** PostgreSQL through node-postgres (pure JavaScript): a small pool; a transaction holds one client. */
export function openPostgres(url: string, poolSize = DEFAULT_POOL_SIZE): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types,
    statement_timeout: POSTGRES_TIMEOUTS.statementMs,
    query_timeout: POSTGRES_TIMEOUTS.queryMs,
    connectionTimeoutMillis: POSTGRES_TIMEOUTS.checkoutMs,
  });
  // An idle client losing its connection must not crash the bot; the next query reconnects.
  pool.on('error', () => undefined);
  const over = (client: pg.Pool | pg.PoolClient): Db => ({
    dialect: 'postgres',
    driver: 'pg',
    query: async (sql: string, params: readonly SqlValue[] = []) =>
      (await client.query(sql, [...params])).rows as Row[],
    transaction: async (work, opening) => {
      if (opening !== undefined) await client.query(opening);
      return work(over(client));
    },
    close: async () => undefined,
  });
  return {
    ...over(pool),
    async transaction(work, opening) {
      const client = await pool.connect();
      let broken: Error | undefined;
      // The pool listens for errors on idle clients only: a connection cut mid-transaction must not be
      // an uncaught 'error' (the query fails, and the client is dropped on release).
      const cut = (error: Error) => (broken ??= error);
      client.on('error', cut);
      try {
        // With no parameters, both go as one simple query: one round trip.
        await client.query(opening === undefined ? 'BEGIN' : `BEGIN; ${opening}`);
        const result = await work(over(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackFailed: unknown) => {
          // A connection that cannot even roll back (timed out, cut) is dropped, not handed out again.
          broken = rollbackFailed instanceof Error ? rollbackFailed : new Error(String(rollbackFailed));
        });
        throw error;
      } finally {
        client.off('error', cut);
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
