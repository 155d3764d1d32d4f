import { BoundedMap } from '../core/bounded-map.js';

/** Distinct SQL texts kept prepared; the store's are a few dozen constants, so this is only a bound. */
const STATEMENTS_KEPT = 256;

/**
 * `prepare` with the statement kept for the next call of the same SQL: compiling it again on every
 * query was a large share of the bot's CPU under load (docs/performance.md). SQLite re-prepares a kept statement by itself after
 * a schema change.
 */
export function statementCache<S>(prepare: (sql: string) => S): (sql: string) => S {
  // Past the bound every statement goes: a few dozen texts never reach it, so no order is worth keeping.
  const kept = new BoundedMap<string, S>({ max: STATEMENTS_KEPT, whenFull: 'clear' });
  return (sql) => {
    let statement = kept.get(sql);
    if (statement === undefined) {
      statement = prepare(sql);
      kept.set(sql, statement);
    }
    return statement;
  };
}
