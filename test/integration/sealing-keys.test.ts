import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EXIT_CONFIG, FatalStartError } from '../../src/core/exit-codes.js';
import { secretKey, type SecretKey } from '../../src/secrets/secret-box.js';
import { refuseUnopenableSecrets } from '../../src/servers/sealing-keys.js';
import { Servers } from '../../src/servers/servers.js';
import { openStore, type DatabaseTarget, type StoreRoot } from '../../src/store/index.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';

const A = '111111111111111111';
const B = '222222222222222222';
const C = '333333333333333333';
const newKey = () => secretKey(randomBytes(32).toString('base64'), 'SECRETS_KEY');

const dirs: string[] = [];
function sqliteTarget(): DatabaseTarget {
  const dir = mkdtempSync(path.join(tmpdir(), 'bot-sealing-keys-'));
  dirs.push(dir);
  return { kind: 'sqlite', file: path.join(dir, 'bot.sqlite') };
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Servers A and B set up (credentials and a webhook token each) under `key`, C with credentials only under `other`. */
async function seed(root: StoreRoot, key: SecretKey, other: SecretKey): Promise<void> {
  const servers = new Servers(root, { current: key }, undefined);
  await servers.load();
  for (const guildId of [A, B]) {
    await servers.setCredentials(guildId, { apiKey: `api-key-${guildId}`, appId: `app-id-${guildId}` });
    await servers.newWebhookToken(guildId);
  }
  const third = new Servers(root, { current: other }, undefined);
  await third.load();
  await third.setCredentials(C, { apiKey: 'api-key-c', appId: 'app-id-c' });
}

async function refusal(root: StoreRoot, keys: Parameters<typeof refuseUnopenableSecrets>[1]): Promise<unknown> {
  return refuseUnopenableSecrets(root, keys).then(
    () => undefined,
    (error: unknown) => error,
  );
}

function storeChecks(target: () => Promise<DatabaseTarget>) {
  it("counts each sealing key's values and servers from the values' heads", async () => {
    const root = await openStore(await target());
    try {
      const [key, other] = [newKey(), newKey()];
      await seed(root, key, other);
      const uses = await root.sealedKeyUses();
      expect(uses).toHaveLength(2);
      expect(uses).toEqual(
        expect.arrayContaining([
          { keyId: key.id, values: 6, servers: 2 },
          { keyId: other.id, values: 2, servers: 1 },
        ]),
      );
    } finally {
      await root.close();
    }
  });

  it('refuses keys that open only some stored secrets with exit 78, naming both settings, counts and the fix', async () => {
    const root = await openStore(await target());
    try {
      const [key, other, stranger] = [newKey(), newKey(), newKey()];
      await seed(root, key, other);
      const error = await refusal(root, { current: stranger, previous: key });
      expect(error).toBeInstanceOf(FatalStartError);
      expect((error as FatalStartError).exitCode).toBe(EXIT_CONFIG);
      const message = (error as Error).message;
      expect(message).toContain('SECRETS_KEY does not open 2 stored secrets of 1 server');
      expect(message).toContain(`sealed by key ${other.id}`);
      expect(message).toContain(`SECRETS_KEY (${stranger.id}) nor SECRETS_KEY_PREVIOUS (${key.id})`);
      expect(message).toContain('npm run rotate-secrets');
      expect(message).toContain('/setup credentials');
      for (const k of [key, other, stranger]) expect(message).not.toContain(k.key.toString('base64'));
      expect(message).not.toMatch(/api-key|app-id/);

      const none = await refusal(root, { current: newKey() });
      expect((none as Error).message).toContain('SECRETS_KEY does not open 8 stored secrets of 3 servers');
      expect((none as Error).message).toContain('SECRETS_KEY_PREVIOUS (not set)');
    } finally {
      await root.close();
    }
  });

  it('lets keys through that open every stored secret, and a store with none', async () => {
    const root = await openStore(await target());
    try {
      expect(await refusal(root, { current: newKey() })).toBeUndefined();
      const [key, other] = [newKey(), newKey()];
      await seed(root, key, other);
      expect(await refusal(root, { current: key, previous: other })).toBeUndefined();
      expect(await refusal(root, { current: other, previous: key })).toBeUndefined();
      // One server from the environment, no SECRETS_KEY: stored secrets are never opened.
      expect(await refusal(root, undefined)).toBeUndefined();
    } finally {
      await root.close();
    }
  });
}

describe('the start-up check of the keys against the stored secrets, on SQLite', () => {
  storeChecks(async () => sqliteTarget());
});

describe('the start-up check of the keys against the stored secrets, on PostgreSQL', () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await server?.stop();
  });
  storeChecks(async () => ({ kind: 'postgres', url: await server.createDatabase() }));
});
