export const DEFAULT_DATABASE_URL = 'file:./data/bot.sqlite';

/** Where a DATABASE_URL points: a SQLite file (`file:` URL or path) or a PostgreSQL server. */
export type DatabaseTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** Parses DATABASE_URL; throws with a message fit for the configuration report. */
export function parseDatabaseUrl(value: string): DatabaseTarget {
  if (/^postgres(ql)?:\/\//i.test(value)) {
    try {
      new URL(value);
    } catch {
      throw new Error('is not a valid postgres:// URL');
    }
    return { kind: 'postgres', url: value };
  }
  if (value.startsWith('file:')) {
    const file = value.slice('file:'.length).replace(/^\/\/(?=\/)/, '');
    if (file === '') throw new Error('names no file: use file:./data/bot.sqlite or postgres://user@host/db');
    return { kind: 'sqlite', file };
  }
  throw new Error('must start with file: (SQLite) or postgres:// (PostgreSQL)');
}
