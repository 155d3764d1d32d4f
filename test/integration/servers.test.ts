import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { secretKey } from '../../src/secrets/secret-box.js';
import { KEEP_AFTER_LEAVING_MS, SecretsKeyMissing, Servers } from '../../src/servers/servers.js';
import { ServiceClients } from '../../src/servers/service-clients.js';
import { pollOffsetMs } from '../../src/runtime/poll-offset.js';
import { openStore, type StoreRoot } from '../../src/store/index.js';

const A = '111111111111111111';
const B = '222222222222222222';
const KEY_A = 'api-key-of-server-a-0123456789';
const APP_A = 'app-id-of-server-a-987654';
const newKey = () => secretKey(randomBytes(32).toString('base64'), 'SECRETS_KEY');

const dirs: string[] = [];
async function freshStore(): Promise<{ root: StoreRoot; file: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bot-servers-'));
  dirs.push(dir);
  const file = path.join(dir, 'bot.sqlite');
  return { root: await openStore({ kind: 'sqlite', file }), file };
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('servers with many servers', () => {
  it('keeps credentials sealed in the store: no plain text in the file, opened only when asked', async () => {
    const { root, file } = await freshStore();
    const servers = new Servers(root, { current: newKey() }, undefined);
    await servers.load();
    await servers.setCredentials(A, { apiKey: KEY_A, appId: APP_A });
    const token = await servers.newWebhookToken(A);
    expect(token.length).toBeGreaterThanOrEqual(32);
    await root.close();
    const bytes =
      readFileSync(file).toString('latin1') + readFileSync(`${file}-wal`, { flag: 'a+' }).toString('latin1');
    for (const secret of [KEY_A, APP_A, token]) expect(bytes).not.toContain(secret);
  });

  it('opens the credentials of a set-up server; a sealed value moved to another server does not open', async () => {
    const { root } = await freshStore();
    const keys = { current: newKey() };
    const servers = new Servers(root, keys, undefined);
    await servers.load();
    expect(servers.isConfigured(A)).toBe(false);
    await servers.setCredentials(A, { apiKey: KEY_A, appId: APP_A });
    expect(servers.isConfigured(A)).toBe(true);
    expect(servers.credentials(A)).toEqual({ apiKey: KEY_A, appId: APP_A });
    const stolen = (await root.server(A))!.sealed;
    await root.saveServer({ ...(await root.server(A))!, guildId: B, sealed: stolen });
    const reread = new Servers(root, keys, undefined);
    await reread.load();
    expect(() => reread.credentials(B)).toThrow(/copied from another server/);
    await root.close();
  });

  it('re-seals everything under a new key, after which the old key can go', async () => {
    const { root } = await freshStore();
    const first = newKey();
    const before = new Servers(root, { current: first }, undefined);
    await before.load();
    await before.setCredentials(A, { apiKey: KEY_A, appId: APP_A });
    const second = newKey();
    const rotating = new Servers(root, { current: second, previous: first }, undefined);
    await rotating.load();
    expect(await rotating.resealAll()).toBe(2);
    const after = new Servers(root, { current: second }, undefined);
    await after.load();
    expect(after.credentials(A)).toEqual({ apiKey: KEY_A, appId: APP_A });
    await root.close();
  });

  it('stops serving a server it left, and forgets it with all its data 30 days later', async () => {
    const { root } = await freshStore();
    let now = 1_000_000;
    const servers = new Servers(root, { current: newKey() }, undefined, () => now);
    await servers.load();
    await servers.setCredentials(A, { apiKey: KEY_A, appId: APP_A });
    await root.forServer(A).optInReminders('284102390141648897', 'en', now);
    await servers.left(A);
    expect(servers.isConfigured(A)).toBe(false);
    now += KEEP_AFTER_LEAVING_MS - 1;
    expect(await servers.forgetLeft()).toEqual([]);
    await servers.joined(A);
    expect(servers.isConfigured(A)).toBe(true);
    await servers.left(A);
    now += KEEP_AFTER_LEAVING_MS + 1;
    expect(await servers.forgetLeft()).toEqual([A]);
    expect(await root.server(A)).toBeUndefined();
    expect(await root.forServer(A).reminderOptIn('284102390141648897')).toBeUndefined();
    await root.close();
  });

  it('says SECRETS_KEY is missing rather than storing a secret unsealed', async () => {
    const { root } = await freshStore();
    const servers = new Servers(root, undefined, undefined);
    await servers.load();
    await expect(servers.setCredentials(A, { apiKey: KEY_A, appId: APP_A })).rejects.toThrow(SecretsKeyMissing);
    expect(await root.server(A)).toBeUndefined();
    await root.close();
  });
});

describe('servers with one server from the environment', () => {
  it("adopts an old store's rows, lets the environment win, and lets /setup fill what it leaves empty", async () => {
    const { root } = await freshStore();
    await root.addEvent('', 'vote', { old: true }, 1_000);
    const servers = new Servers(root, undefined, {
      guildId: A,
      settings: { reviewChannelId: '900000000000000001', moderatorRoleIds: [] },
      credentials: { apiKey: KEY_A, appId: APP_A },
      webhookToken: 'the-single-server-webhook-token',
    });
    expect((await servers.load()).adopted).toBe(1);
    expect((await root.pendingEvents(5)).map((e) => e.guildId)).toEqual([A]);
    expect(servers.isConfigured(A)).toBe(true);
    expect(servers.credentials(A)).toEqual({ apiKey: KEY_A, appId: APP_A });
    expect(servers.webhookToken(A)).toBe('the-single-server-webhook-token');
    await servers.setSettings(A, { reviewChannelId: '900000000000000009', voteChannelId: '900000000000000002' });
    expect(servers.settings(A)).toMatchObject({
      reviewChannelId: '900000000000000001',
      voteChannelId: '900000000000000002',
    });
    // The store counts the single server's votes since the store was made, not since this start.
    expect(await root.forServer(A).countingSince()).toBe(await root.createdAt());
    await root.close();
  });
});

describe('one service client per server', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(() => sandbox?.close());

  it("sends each server's own credentials, opened per request, and keeps few clients", async () => {
    let now = 0;
    const opened: string[] = [];
    const clients = new ServiceClients({
      shared: { baseUrl: sandbox.baseUrl, cacheTtlMs: 0 },
      credentials: (guildId) => {
        opened.push(guildId);
        return guildId === A
          ? { apiKey: sandbox.apiKey, appId: sandbox.appId }
          : { apiKey: 'someone-elses-key', appId: 'someone-elses-app' };
      },
      max: 2,
      idleMs: 1_000,
      now: () => now,
    });
    const a = clients.forServer(A);
    expect(clients.forServer(A)).toBe(a);
    await a.listVotes();
    await expect(clients.forServer(B).listVotes()).rejects.toThrow();
    expect(opened).toEqual([A, B]);
    const keys = sandbox.requests.map((r) => r.headers['service-api-key']);
    expect(keys).toEqual([sandbox.apiKey, 'someone-elses-key']);
    now += 2_000;
    clients.forServer('333333333333333333');
    expect(clients.size).toBe(1);
    expect(clients.existing(A)).toBeUndefined();
  });

  it('spreads servers over the poll interval, each always at the same place', () => {
    const offsets = Array.from({ length: 1_000 }, (_, i) =>
      pollOffsetMs(String(100_000_000_000_000_000n + BigInt(i)), 60_000),
    );
    expect(pollOffsetMs(A, 60_000)).toBe(pollOffsetMs(A, 60_000));
    expect(Math.min(...offsets)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...offsets)).toBeLessThan(60_000);
    // Ten-second slices each hold about a sixth of the servers.
    for (let slice = 0; slice < 6; slice++) {
      const count = offsets.filter((o) => o >= slice * 10_000 && o < (slice + 1) * 10_000).length;
      expect(count).toBeGreaterThan(120);
      expect(count).toBeLessThan(220);
    }
  });
});
