import type { ShardSet } from '../shards/ownership.js';
import { placeholders, type SqlValue } from './sql.js';

/**
 * ` AND` the row's server is on one of these shards, by Discord's rule `(guild id >> 22) % count`
 * (a division, which both SQLite and PostgreSQL do on 64-bit integers); nothing for every shard.
 */
export function shardFilter(
  shards: ShardSet | undefined,
  firstParam: number,
  column = 'guild_id',
): { sql: string; params: SqlValue[] } {
  if (!shards || shards.ids.length >= shards.count) return { sql: '', params: [] };
  const list = placeholders(shards.ids.length, firstParam + 1);
  return {
    sql: ` AND (CAST(${column} AS BIGINT) / 4194304) % $${firstParam} IN (${list})`,
    params: [shards.count, ...shards.ids],
  };
}
