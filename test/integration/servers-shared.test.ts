import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { secretKey } from '../../src/secrets/secret-box.js';
import { Servers } from '../../src/servers/servers.js';
import { openStore, type StoreRoot } from '../../src/store/index.js';
import { SharedTokens } from '../../src/webhooks/shared-tokens.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';

const A = '111111111111111111';
const keys = { current: secretKey(randomBytes(32).toString('base64'), 'SECRETS_KEY') };

let server: TestPostgres;
const roots: StoreRoot[] = [];
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await Promise.all(roots.map((root) => root.close()));
  await server?.stop();
});

async function twoProcesses(): Promise<{ bot: Servers; receiver: Servers }> {
  const url = await server.createDatabase();
  const [botRoot, receiverRoot] = [
    await openStore({ kind: 'postgres', url }),
    await openStore({ kind: 'postgres', url }),
  ];
  roots.push(botRoot, receiverRoot);
  const bot = new Servers(botRoot, keys, undefined);
  await bot.load();
  return { bot, receiver: new Servers(receiverRoot, keys, undefined) };
}

describe('servers read by a receiver in another process, on one PostgreSQL', () => {
  it("sees a server's token once /setup in the bot made it, and the new one once it was rotated", async () => {
    const { bot, receiver } = await twoProcesses();
    let now = 0;
    const tokens = new SharedTokens(receiver, { now: () => now });
    expect(await tokens.tokenFor(A)).toBeUndefined();

    await bot.setCredentials(A, { apiKey: 'api-key-of-server-a-0123', appId: 'app-id-of-server-a-4567' });
    const first = await bot.newWebhookToken(A);
    now += 5_000;
    expect(await tokens.tokenFor(A)).toBe(first);

    const rotated = await bot.newWebhookToken(A);
    now += 5_000;
    expect(await tokens.tokenFor(A)).toBe(rotated);
    expect(rotated).not.toBe(first);

    await bot.left(A);
    now += 5_000;
    expect(await tokens.tokenFor(A)).toBeUndefined();
  });

  it('keeps a change made in this process while a reload was reading the older record', async () => {
    const url = await server.createDatabase();
    const root = await openStore({ kind: 'postgres', url });
    roots.push(root);
    // The reload's read answers only after the change below is saved: it carries the older record.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let readDone!: () => void;
    const read = new Promise<void>((resolve) => (readDone = resolve));
    const slowRead = new Proxy(root, {
      get(target, name) {
        if (name === 'server')
          return async (guildId: string) => {
            const record = await target.server(guildId);
            readDone();
            await held;
            return record;
          };
        const value = Reflect.get(target, name) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const bot = new Servers(slowRead, keys, undefined);
    await bot.load();
    await bot.setCredentials(A, { apiKey: 'api-key-of-server-a-0123', appId: 'app-id-of-server-a-4567' });
    const reading = bot.reload(A);
    // The reload has read the older record before the change below is made.
    await read;
    const token = await bot.newWebhookToken(A);
    release();
    await reading;
    expect(bot.webhookToken(A)).toBe(token);
  });
});
