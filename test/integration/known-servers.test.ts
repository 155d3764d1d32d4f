import { afterEach, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '../../src/core/log.js';
import { secretKey } from '../../src/secrets/secret-box.js';
import { Servers } from '../../src/servers/servers.js';
import { openStore, type StoreRoot } from '../../src/store/index.js';
import { KnownServers } from '../../src/webhooks/known-servers.js';
import { SharedTokens } from '../../src/webhooks/shared-tokens.js';

const A = '111111111111111111';
const keys = { current: secretKey(randomBytes(32).toString('base64'), 'SECRETS_KEY') };
const logger = createLogger('silent');

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** A real SQLite store whose reads of the servers' ids are counted. */
async function countedStore(): Promise<{ root: StoreRoot; reads: () => number }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bot-known-servers-'));
  const root = await openStore({ kind: 'sqlite', file: path.join(dir, 'bot.sqlite') });
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanup.push(() => root.close());
  let reads = 0;
  const counted = new Proxy(root, {
    get(target, name) {
      const value = Reflect.get(target, name) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (name === 'webhookServerIds' || name === 'server' || name === 'servers') reads += 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { root: counted, reads: () => reads };
}

async function setUp(root: StoreRoot, guildId: string): Promise<void> {
  const servers = new Servers(root, keys, undefined);
  await servers.setCredentials(guildId, { apiKey: 'api-key-of-the-server-0123', appId: 'app-id-of-the-server' });
  await servers.newWebhookToken(guildId);
}

const madeUp = (n: number) => Array.from({ length: n }, (_, i) => String(300000000000000000n + BigInt(i)));

describe('the servers that take webhook deliveries, kept in memory', () => {
  it('answers made-up ids from memory while notifications are heard', async () => {
    const { root, reads } = await countedStore();
    await setUp(root, A);
    const known = new KnownServers({ store: root, logger });
    await known.start();
    cleanup.push(() => known.stop());
    known.listening(true);
    const before = reads();
    for (const id of madeUp(1_000)) expect(await known.mayTake(id)).toBe(false);
    expect(await known.mayTake(A)).toBe(true);
    expect(reads() - before).toBe(0);
  });

  it('takes a server saved between its first read and the listener starting: its notification went to nobody', async () => {
    const { root, reads } = await countedStore();
    const known = new KnownServers({ store: root, logger });
    await known.start();
    cleanup.push(() => known.stop());
    await setUp(root, A);
    known.listening(true);
    const before = reads();
    expect(await known.mayTake(A)).toBe(true);
    for (const id of madeUp(100)) expect(await known.mayTake(id)).toBe(false);
    expect(reads() - before).toBe(0);
  });

  it('while notifications cannot be heard, reads the set again on a miss at most once per interval', async () => {
    const { root, reads } = await countedStore();
    let now = 0;
    const known = new KnownServers({ store: root, logger, now: () => now, missRefreshMs: 5_000 });
    await known.start();
    cleanup.push(() => known.stop());
    const before = reads();
    await setUp(root, A);
    // Set up (in another process) while the listener was down: found by the first miss's read.
    expect(await known.mayTake(A)).toBe(false);
    now = 5_000;
    expect(await Promise.all(madeUp(100).map((id) => known.mayTake(id)))).toEqual(Array(100).fill(false));
    expect(await known.mayTake(A)).toBe(true);
    expect(reads() - before).toBe(1);
  });

  it('with the store down, a miss fails (answered 503, which Guilds retries) and the next ones within the interval wait for nothing', async () => {
    const { root, reads } = await countedStore();
    let now = 0;
    const known = new KnownServers({ store: root, logger, now: () => now, missRefreshMs: 5_000 });
    await known.start();
    cleanup.push(() => known.stop());
    await root.close();
    now = 5_000;
    const before = reads();
    await expect(known.mayTake(A)).rejects.toThrow();
    for (const id of madeUp(50)) expect(await known.mayTake(id)).toBe(false);
    expect(reads() - before).toBe(1);
  });

  it('remembers nothing for made-up ids: 3,000 of them leave the token reader and the set as they were', async () => {
    const { root } = await countedStore();
    await setUp(root, A);
    const known = new KnownServers({ store: root, logger });
    await known.start();
    cleanup.push(() => known.stop());
    known.listening(true);
    const tokens = new SharedTokens(new Servers(root, keys, undefined), { known });
    expect(await tokens.tokenFor(A)).toBeDefined();
    for (const id of madeUp(3_000)) expect(await tokens.tokenFor(id)).toBeUndefined();
    expect(tokens.remembered).toBe(1);
    expect(known.size).toBe(1);
  });
});
