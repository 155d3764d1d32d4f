import pg from 'pg';

/**
 * The statements PostgreSQL spent most time on, when the bench's server loaded pg_stat_statements
 * (BENCH_PG_STATEMENTS=1): where a store-bound figure goes. Undefined when it is not loaded.
 */
export async function topStatements(url: string, count = 12): Promise<string[] | undefined> {
  if (process.env.BENCH_PG_STATEMENTS !== '1') return undefined;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const { rows } = await client.query<{ calls: string; ms: string; query: string }>(
      `SELECT calls::text, round(total_exec_time)::text AS ms, regexp_replace(query, '\\s+', ' ', 'g') AS query
       FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT $1`,
      [count],
    );
    return rows.map((row) => `${row.ms} ms in ${row.calls} calls: ${row.query.slice(0, 160)}`);
  } finally {
    await client.end();
  }
}
