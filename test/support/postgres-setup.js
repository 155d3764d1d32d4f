import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SHARED_POSTGRES_ENV } from '../../tools/shared-postgres.js';

/**
 * Jest's globalSetup: a folder for the run's one PostgreSQL cluster, which the first test that needs
 * one starts (tools/postgres.ts). Set before the workers start, so each inherits it; npm test sets it
 * for each stage itself, so it can stop a stage's cluster when the stage is stopped.
 */
export default function setup() {
  process.env[SHARED_POSTGRES_ENV] ??= mkdtempSync(path.join(tmpdir(), 'bot-pg-run-'));
}
