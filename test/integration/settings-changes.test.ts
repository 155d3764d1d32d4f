import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { createLogger } from '../../src/core/log.js';
import { followSettingsChanges } from '../../src/processes/settings-changes.js';
import { secretKey } from '../../src/secrets/secret-box.js';
import { Servers } from '../../src/servers/servers.js';
import { openStore, type StoreRoot } from '../../src/store/index.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';
import { pollUntil } from '../support/poll-until.js';

const MINE = '111111111111111111';
const keys = { current: secretKey(randomBytes(32).toString('base64'), 'SECRETS_KEY') };
const logger = createLogger('silent');

let postgres: TestPostgres;
let url: string;
const opened: StoreRoot[] = [];

beforeAll(async () => {
  postgres = await startPostgres();
  url = await postgres.createDatabase();
}, 60_000);
afterAll(async () => {
  for (const store of opened) await store.close();
  await postgres?.stop();
});

async function process(): Promise<Servers> {
  const store = await openStore({ kind: 'postgres', url });
  opened.push(store);
  const servers = new Servers(store, keys, undefined);
  await servers.load();
  return servers;
}

describe("a server's settings changed by another process", () => {
  it('are read again, and the server restarted with them, in the process that runs it', async () => {
    const gateway = await process();
    const restarted: string[] = [];
    const follower = followSettingsChanges({
      url,
      servers: gateway,
      owns: (guildId) => guildId === MINE,
      restart: async (guildId) => void restarted.push(guildId),
      logger,
    });
    try {
      const elsewhere = await process();
      // The listener connects in the background and tells no one when it listens: the change is
      // made again, every 50 ms, until it is heard.
      await pollUntil(
        async () => {
          if (gateway.isConfigured(MINE)) return true;
          await elsewhere.setCredentials(MINE, { apiKey: 'api-key-of-the-server-0123', appId: 'app-id-of-the-server' });
          return false;
        },
        'the change heard',
        { everyMs: 50 },
      );
      expect(gateway.isConfigured(MINE)).toBe(true);
      expect(restarted[0]).toBe(MINE);
      expect(new Set(restarted)).toEqual(new Set([MINE]));
    } finally {
      await follower.stop();
    }
  });
});
