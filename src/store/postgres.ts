import pg from 'pg';
import type { Db, Row, SqlValue } from './sql.js';

// BIGINT (int8) columns hold millisecond times, well inside Number's exact range.
const INT8 = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** PostgreSQL through node-postgres (pure JavaScript): a small pool; a transaction holds one client. */
export function openPostgres(url: string): Db {
  const pool = new pg.Pool({ connectionString: url, max: 4, types });
  // An idle client losing its connection must not crash the bot; the next query reconnects.
  pool.on('error', () => undefined);
  const over = (client: pg.Pool | pg.PoolClient): Db => ({
    dialect: 'postgres',
    driver: 'pg',
    query: async (sql: string, params: readonly SqlValue[] = []) =>
      (await client.query(sql, [...params])).rows as Row[],
    transaction: (work) => work(over(client)),
    close: async () => undefined,
  });
  return {
    ...over(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(over(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
