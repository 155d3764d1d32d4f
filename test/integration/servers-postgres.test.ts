import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { secretKey } from '../../src/secrets/secret-box.js';
import { Servers } from '../../src/servers/servers.js';
import { openStore } from '../../src/store/index.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';

const A = '111111111111111111';
const KEY_A = 'api-key-of-server-a-0123456789';
const APP_A = 'app-id-of-server-a-987654';

let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server?.stop();
});

/** Every row of every table in the store's schema, as PostgreSQL's own text form of the row. */
async function dumpTables(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ name: string }>(
      "SELECT quote_ident(table_name) AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
    );
    const dumps: string[] = [];
    for (const { name } of tables) {
      const { rows } = await client.query<{ row: string }>(`SELECT t::text AS row FROM ${name} t`);
      dumps.push(`${name}\n${rows.map((r) => r.row).join('\n')}`);
    }
    return dumps.join('\n');
  } finally {
    await client.end();
  }
}

describe('servers on PostgreSQL', () => {
  it('keeps credentials and webhook tokens sealed: no table holds them in plain text', async () => {
    const url = await server.createDatabase();
    const root = await openStore({ kind: 'postgres', url });
    const keys = { current: secretKey(randomBytes(32).toString('base64'), 'SECRETS_KEY') };
    const servers = new Servers(root, keys, undefined);
    await servers.load();
    await servers.setCredentials(A, { apiKey: KEY_A, appId: APP_A });
    const token = await servers.newWebhookToken(A);
    await root.close();

    const dump = await dumpTables(url);
    // The dump does reach the servers row: its id and the sealed values are there.
    expect(dump).toContain(A);
    for (const secret of [KEY_A, APP_A, token]) expect(dump).not.toContain(secret);
    expect(dump.match(/v1:[0-9a-f]{8}:/g)).toHaveLength(3);

    const reopened = await openStore({ kind: 'postgres', url });
    const again = new Servers(reopened, keys, undefined);
    await again.load();
    expect(again.credentials(A)).toEqual({ apiKey: KEY_A, appId: APP_A });
    expect(again.webhookToken(A)).toBe(token);
    await reopened.close();
  });
});
