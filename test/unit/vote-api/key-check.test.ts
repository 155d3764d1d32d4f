import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { hashApiKey, isApiKey, newApiKey, sameHash } from '../../../src/secrets/api-keys.js';
import { openStore, type StoreRoot } from '../../../src/store/index.js';
import { KeyCheck } from '../../../src/vote-api/key-check.js';

const SERVER_A = '111111111111111111';
const SERVER_B = '222222222222222222';
const bearer = (key: string) => `Bearer ${key}`;

describe('keys to the vote API', () => {
  it('are vrk_ and 43 random URL-safe characters, each new one different', () => {
    const keys = new Set(Array.from({ length: 50 }, newApiKey));
    expect(keys.size).toBe(50);
    for (const key of keys) {
      expect(key).toMatch(/^vrk_[A-Za-z0-9_-]{43}$/);
      expect(isApiKey(key)).toBe(true);
    }
    expect(isApiKey('vrk_short')).toBe(false);
    expect(isApiKey(`vrk_${'a'.repeat(40)} `)).toBe(false);
  });

  it('are kept as their SHA-256, never as themselves, and compared hash to hash', () => {
    const key = newApiKey();
    const hash = hashApiKey(key);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(key.slice(4, 12));
    expect(sameHash(hash, hashApiKey(key))).toBe(true);
    expect(sameHash(hash, hashApiKey(newApiKey()))).toBe(false);
    expect(sameHash(hash, '')).toBe(false);
  });
});

describe('a request’s key, checked', () => {
  let root: StoreRoot;
  const keyA = newApiKey();
  const keyB = newApiKey();
  beforeAll(async () => {
    root = await openStore({ kind: 'sqlite', file: ':memory:' });
    for (const [guildId, key] of [
      [SERVER_A, keyA],
      [SERVER_B, keyB],
    ] as const)
      await root.addApiKey(
        { guildId, name: 'bot', keyHash: hashApiKey(key), last4: key.slice(-4), createdAt: 1, createdBy: '1' },
        10,
      );
  });
  afterAll(() => root.close());

  it('names the one server a stored key is bound to, and counts it by its hash', async () => {
    const check = new KeyCheck({ store: root });
    expect(await check.holder(bearer(keyA))).toEqual({ guildId: SERVER_A, bucket: hashApiKey(keyA) });
    expect(await check.holder(bearer(keyB))).toEqual({ guildId: SERVER_B, bucket: hashApiKey(keyB) });
  });

  it('takes the scheme in any case, and nothing that is not Bearer and a key', async () => {
    const check = new KeyCheck({ store: root });
    expect((await check.holder(`bearer ${keyA}`))?.guildId).toBe(SERVER_A);
    for (const header of [undefined, '', keyA, `Basic ${keyA}`, `Bearer ${keyA}x y`, 'Bearer vrk_nope'])
      expect(await check.holder(header)).toBeUndefined();
  });

  it('refuses a key of the right shape that no server has, and one revoked', async () => {
    const check = new KeyCheck({ store: root });
    expect(await check.holder(bearer(newApiKey()))).toBeUndefined();
    const revoked = newApiKey();
    const record = {
      guildId: SERVER_A,
      name: 'old',
      keyHash: hashApiKey(revoked),
      last4: 'x',
      createdAt: 2,
      createdBy: '1',
    };
    expect(await root.addApiKey(record, 10)).toBe('added');
    expect((await check.holder(bearer(revoked)))?.guildId).toBe(SERVER_A);
    expect((await root.removeApiKey(SERVER_A, 'old'))?.keyHash).toBe(record.keyHash);
    expect(await check.holder(bearer(revoked))).toBeUndefined();
  });

  it('binds API_KEYS to the one server in single-server mode, beside the stored keys', async () => {
    const own = `vrk_${'0123456789abcdef'.repeat(3)}`;
    const check = new KeyCheck({ store: root, single: { guildId: SERVER_B, keys: [newApiKey(), own] } });
    expect(await check.holder(bearer(own))).toEqual({ guildId: SERVER_B, bucket: hashApiKey(own) });
    expect((await check.holder(bearer(keyA)))?.guildId).toBe(SERVER_A);
    expect(await check.holder(bearer(newApiKey()))).toBeUndefined();
  });

  it("never reads the store for a header that is no key's shape", async () => {
    let reads = 0;
    const check = new KeyCheck({
      store: { apiKeyByHash: async () => ((reads += 1), undefined) },
    });
    await check.holder('Bearer not-a-key');
    await check.holder(undefined);
    expect(reads).toBe(0);
    await check.holder(bearer(newApiKey()));
    expect(reads).toBe(1);
  });
});
