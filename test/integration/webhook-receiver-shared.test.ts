import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { createLogger } from '../../src/core/log.js';
import { startWebhookReceiver } from '../../src/processes/webhook-receiver.js';
import { secretKey } from '../../src/secrets/secret-box.js';
import { Servers } from '../../src/servers/servers.js';
import { openStore, type StoreRoot } from '../../src/store/index.js';
import { DeliveryLog } from '../../src/webhooks/delivery-log.js';
import { deliver, voteEvent } from '../../tools/guilds-webhook.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';
import { pollUntil } from '../support/poll-until.js';

const A = '111111111111111111';
const B = '222222222222222222';
const VOTER = '284102390141648897';
const keys = { current: secretKey(randomBytes(32).toString('base64'), 'SECRETS_KEY') };
const logger = createLogger('silent');
const webhook = {
  host: '127.0.0.1',
  port: 0,
  path: '/webhook',
  token: undefined,
  publicUrl: undefined,
  maxConnections: 100,
};

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterAll(async () => {
  await postgres?.stop();
});
const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** The store as it is, every method call counted: a real store, watched. */
function counted(root: StoreRoot): { root: StoreRoot; calls: string[] } {
  const calls: string[] = [];
  const watched = new Proxy(root, {
    get(target, name) {
      const value = Reflect.get(target, name) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(name));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { root: watched, calls };
}

async function open(url: string): Promise<StoreRoot> {
  const root = await openStore({ kind: 'postgres', url });
  cleanup.push(() => root.close());
  return root;
}

/** A server set up with /setup in a bot process: its credentials and its own webhook token, returned. */
async function setUp(servers: Servers, guildId: string): Promise<string> {
  await servers.setCredentials(guildId, { apiKey: 'api-key-of-the-server-0123', appId: 'app-id-of-the-server' });
  return servers.newWebhookToken(guildId);
}

async function receiverOn(url: string, root: StoreRoot, servers: Servers): Promise<string> {
  const deliveries = new DeliveryLog({ store: root, logger });
  const receiver = await startWebhookReceiver({
    webhook,
    database: { kind: 'postgres', url },
    servers,
    store: root,
    logger,
    deliveries,
    inbox: { wake: () => undefined },
  });
  cleanup.push(() => deliveries.stop());
  cleanup.push(() => receiver.close());
  return receiver.url;
}

/** Made-up server ids, as a stranger would send: valid snowflakes no one set up. */
const madeUp = (n: number) => Array.from({ length: n }, (_, i) => String(300000000000000000n + BigInt(i)));

describe('the webhook receiver on a shared store (PostgreSQL)', () => {
  it('answers deliveries for made-up server ids without a store read, and still takes a set-up server', async () => {
    const url = await postgres.createDatabase();
    const bot = new Servers(await open(url), keys, undefined);
    await bot.load();
    const token = await setUp(bot, A);
    const { root, calls } = counted(await open(url));
    const base = await receiverOn(url, root, new Servers(root, keys, undefined));
    calls.length = 0;

    const ids = madeUp(200);
    // In tens, as a flood arrives over a few connections: a 401 is sent before the body is read.
    for (let at = 0; at < ids.length; at += 10) {
      const some = ids.slice(at, at + 10);
      const answers = await Promise.all(some.map((id) => deliver(`${base}/${id}`, 'a-guess', voteEvent(id, VOTER))));
      expect(new Set(answers)).toEqual(new Set([401]));
    }
    // At most the one read the listener makes when it starts (what was saved before it listened), not one an id.
    expect(calls.filter((call) => call !== 'webhookServerIds')).toEqual([]);
    expect(calls.length).toBeLessThanOrEqual(1);
    expect(await deliver(`${base}/${A}`, token, voteEvent(A, VOTER))).toBe(200);
  });

  it('takes a server another process set up a moment ago, told by the store', async () => {
    const url = await postgres.createDatabase();
    const root = await open(url);
    const base = await receiverOn(url, root, new Servers(root, keys, undefined));
    const bot = new Servers(await open(url), keys, undefined);
    await bot.load();
    const token = await setUp(bot, B);

    // The notification comes on the listener's own connection, milliseconds after the commit; a loaded
    // machine (the whole suite on two cores) has taken over a second. Nothing outside says it came:
    // the delivery is tried again until it is taken.
    let status = 0;
    await pollUntil(
      async () => (status = await deliver(`${base}/${B}`, token, voteEvent(B, VOTER))) === 200,
      'the server taken',
      { everyMs: 20 },
    ).catch(() => undefined);
    expect(status).toBe(200);
  });

  it('takes a server this process set up at once (ROLE=all)', async () => {
    const url = await postgres.createDatabase();
    const root = await open(url);
    const servers = new Servers(root, keys, undefined);
    await servers.load();
    const base = await receiverOn(url, root, servers);
    const token = await setUp(servers, B);
    expect(await deliver(`${base}/${B}`, token, voteEvent(B, VOTER))).toBe(200);
  });

  it('refuses a server once it is forgotten, told by the store', async () => {
    const url = await postgres.createDatabase();
    const bot = new Servers(await open(url), keys, undefined);
    await bot.load();
    const token = await setUp(bot, A);
    const { root, calls } = counted(await open(url));
    const base = await receiverOn(url, root, new Servers(root, keys, undefined));
    expect(await deliver(`${base}/${A}`, token, voteEvent(A, VOTER))).toBe(200);

    await bot.reset(A);
    // Told by the store's notification, which nothing outside sees come: tried again until refused.
    let status = 0;
    await pollUntil(
      async () => (status = await deliver(`${base}/${A}`, token, voteEvent(A, VOTER))) === 401,
      'the server refused',
      { everyMs: 20 },
    ).catch(() => undefined);
    expect(status).toBe(401);
    // Read once more and found gone: later deliveries for it read nothing.
    calls.length = 0;
    expect(await deliver(`${base}/${A}`, token, voteEvent(A, VOTER))).toBe(401);
    expect(calls).toEqual([]);
  });
});
