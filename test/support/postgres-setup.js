import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** tools/postgres.ts reads the same name (SHARED_POSTGRES_ENV): plain JS, as Jest loads this file, cannot import it. */
export const SHARED_POSTGRES_ENV = 'TEST_POSTGRES_SHARED_DIR';

/**
 * Jest's globalSetup: a folder for the run's one PostgreSQL cluster, which the first test that needs
 * one starts (tools/postgres.ts). Set before the workers start, so each inherits it.
 */
export default function setup() {
  process.env[SHARED_POSTGRES_ENV] ??= mkdtempSync(path.join(tmpdir(), 'bot-pg-run-'));
}
