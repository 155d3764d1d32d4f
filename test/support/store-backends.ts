import { afterAll } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DatabaseTarget } from '../../src/store/index.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';

export interface StoreBackend {
  name: 'SQLite' | 'PostgreSQL';
  /** A new, empty database of this kind. */
  fresh(): Promise<DatabaseTarget>;
}

/**
 * SQLite files in temporary folders and one PostgreSQL cluster of the test file's own (started on
 * first use), for `describe.each`; everything is removed after the file.
 */
export function storeBackends(prefix: string): readonly StoreBackend[] {
  const dirs: string[] = [];
  let server: TestPostgres | undefined;
  afterAll(async () => {
    await server?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 30_000);
  return [
    {
      name: 'SQLite',
      async fresh() {
        const dir = mkdtempSync(path.join(tmpdir(), prefix));
        dirs.push(dir);
        return { kind: 'sqlite', file: path.join(dir, 'bot.sqlite') };
      },
    },
    {
      name: 'PostgreSQL',
      async fresh() {
        server ??= await startPostgres();
        return { kind: 'postgres', url: await server.createDatabase() };
      },
    },
  ];
}
