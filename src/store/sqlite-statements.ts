/** Distinct SQL texts kept prepared; the store's are a few dozen constants, so this is only a bound. */
const STATEMENTS_KEPT = 256;

/**
 * `prepare` with the statement kept for the next call of the same SQL: compiling it again on every
 * query was a tenth of the bot's CPU under load. SQLite re-prepares a kept statement by itself after
 * a schema change.
 */
export function statementCache<S>(prepare: (sql: string) => S): (sql: string) => S {
  const kept = new Map<string, S>();
  return (sql) => {
    let statement = kept.get(sql);
    if (statement === undefined) {
      if (kept.size >= STATEMENTS_KEPT) kept.clear();
      statement = prepare(sql);
      kept.set(sql, statement);
    }
    return statement;
  };
}
