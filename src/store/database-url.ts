export const DEFAULT_DATABASE_URL = 'file:./data/bot.sqlite';

/** Where a DATABASE_URL points: a SQLite file (`file:` URL or path) or a PostgreSQL server. */
export type DatabaseTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** Parses DATABASE_URL; throws with a message fit for the configuration report (never quoting the password). */
export function parseDatabaseUrl(value: string): DatabaseTarget {
  if (/^postgres(ql)?:\/\//i.test(value)) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new Error('is not a valid postgres:// URL');
    }
    // The driver percent-decodes both; a lone % would otherwise stop the start with "URI malformed".
    for (const [part, text] of [
      ['user name', url.username],
      ['password', url.password],
    ] as const) {
      try {
        decodeURIComponent(text);
      } catch {
        throw new Error(
          `has a % in its ${part} that is not followed by two hex digits: write a % there as %25 (and @ : / ? # as %40 %3A %2F %3F %23)`,
        );
      }
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

/** The store as a log line or message may name it: a PostgreSQL URL loses its password and query. */
export function describeDatabase(target: DatabaseTarget): string {
  if (target.kind === 'sqlite') return target.file;
  const url = new URL(target.url);
  url.password = '';
  url.search = '';
  return url.toString();
}

/** PostgreSQL connections a process's pool keeps at most, unless DATABASE_POOL_SIZE says otherwise. */
export const DEFAULT_POOL_SIZE = 4;
