import { afterEach, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '../../src/core/log.js';
import { startWebhookReceiver } from '../../src/processes/webhook-receiver.js';
import { secretKey } from '../../src/secrets/secret-box.js';
import { Servers } from '../../src/servers/servers.js';
import { openStore, type StoreRoot } from '../../src/store/index.js';
import { DeliveryLog } from '../../src/webhooks/delivery-log.js';
import type { Receiver } from '../../src/webhooks/receiver.js';
import { deliver, voteEvent } from '../../tools/guilds-webhook.js';

const SINGLE = '111111111111111111';
const OTHER = '222222222222222222';
const VOTER = '284102390141648897';
const SINGLE_TOKEN = 'the-single-servers-webhook-token';
const keys = { current: secretKey(randomBytes(32).toString('base64'), 'SECRETS_KEY') };
const logger = createLogger('silent');
const webhook = {
  host: '127.0.0.1',
  port: 0,
  path: '/webhook',
  token: SINGLE_TOKEN,
  publicUrl: undefined,
  maxConnections: 100,
};

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function freshStore(): Promise<StoreRoot> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bot-receiver-wiring-'));
  const root = await openStore({ kind: 'sqlite', file: path.join(dir, 'bot.sqlite') });
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanup.push(() => root.close());
  return root;
}

async function serversOn(root: StoreRoot, single: boolean): Promise<Servers> {
  const servers = new Servers(
    root,
    keys,
    single ? { guildId: SINGLE, settings: {}, credentials: undefined, webhookToken: SINGLE_TOKEN } : undefined,
  );
  await servers.load();
  return servers;
}

/** A server set up with /setup: its credentials and its own webhook token, which is returned. */
async function setUp(servers: Servers, guildId: string): Promise<string> {
  await servers.setCredentials(guildId, { apiKey: 'api-key-of-the-server-0123', appId: 'app-id-of-the-server' });
  return servers.newWebhookToken(guildId);
}

async function wired(root: StoreRoot, servers: Servers) {
  const stored: string[] = [];
  const refused: string[] = [];
  const deliveries = new DeliveryLog({ store: root, logger });
  const receiver: Receiver = await startWebhookReceiver({
    webhook,
    database: { kind: 'sqlite', file: 'unused: the store is given' },
    servers,
    store: root,
    logger,
    deliveries,
    onRefused: (reason) => refused.push(reason),
    inbox: { wake: () => stored.push('stored') },
  });
  cleanup.push(() => deliveries.stop());
  cleanup.push(() => receiver.close());
  const base = receiver.url.replace(/\/webhook$/, '');
  return { base, stored, refused, deliveries };
}

const pending = async (root: StoreRoot) => (await root.pendingEvents(100)).map((event) => event.guildId);

describe('the webhook receiver as a process wires it', () => {
  it('takes the plain path with WEBHOOK_TOKEN for the single server, and each server at its own path with its token', async () => {
    const root = await freshStore();
    const servers = await serversOn(root, true);
    const otherToken = await setUp(servers, OTHER);
    const { base, stored, refused } = await wired(root, servers);

    expect(await deliver(`${base}/webhook`, SINGLE_TOKEN, voteEvent(SINGLE, VOTER))).toBe(200);
    expect(await deliver(`${base}/webhook/${OTHER}`, otherToken, voteEvent(OTHER, VOTER))).toBe(200);
    expect(await deliver(`${base}/webhook/${OTHER}`, SINGLE_TOKEN, voteEvent(OTHER, VOTER))).toBe(401);
    expect(await pending(root)).toEqual([SINGLE, OTHER]);
    expect(stored).toHaveLength(2);
    expect(refused).toEqual(['token']);
  });

  it("writes the receiver's refusals to the servers' delivery log", async () => {
    const root = await freshStore();
    const servers = await serversOn(root, false);
    const token = await setUp(servers, OTHER);
    const { base, deliveries } = await wired(root, servers);
    expect(await deliver(`${base}/webhook/${OTHER}`, `${token}-wrong`, voteEvent(OTHER, VOTER))).toBe(401);
    await deliveries.stop();
    expect((await root.forServer(OTHER).recentDeliveries(10)).map((line) => line.outcome)).toEqual(['wrong_token']);
  });

  it('with its own store, trusts what it loaded: a token made by another process is not taken', async () => {
    const root = await freshStore();
    const own = await wired(root, await serversOn(root, false));
    const token = await setUp(await serversOn(root, false), OTHER);
    expect(await deliver(`${own.base}/webhook/${OTHER}`, token, voteEvent(OTHER, VOTER))).toBe(401);
  });
});
