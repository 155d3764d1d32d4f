import { afterAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sealSecret, secretKey } from '../../src/secrets/secret-box.js';
import { migrate, MIGRATIONS } from '../../src/store/migrations.js';
import { openPostgres } from '../../src/store/postgres.js';
import { openSqlite } from '../../src/store/sqlite.js';
import { Servers } from '../../src/servers/servers.js';
import { openStore, type DatabaseTarget } from '../../src/store/index.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';

// Each server's listings (issue 34): the lists besides Guilds it takes votes from, their secrets
// sealed like the credentials, on SQLite and PostgreSQL alike.

const A = '111111111111111111';
const B = '222222222222222222';
const WHS = 'whs_0123456789abcdefghijklmnopqrstuv';
const HOUR = 3_600_000;
const newKey = () => secretKey(randomBytes(32).toString('base64'), 'SECRETS_KEY');

const dirs: string[] = [];
let server: TestPostgres | undefined;
afterAll(async () => {
  await server?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 30_000);

const backends = [
  {
    name: 'SQLite',
    async fresh(): Promise<DatabaseTarget> {
      const dir = mkdtempSync(path.join(tmpdir(), 'bot-listings-'));
      dirs.push(dir);
      return { kind: 'sqlite', file: path.join(dir, 'bot.sqlite') };
    },
  },
  {
    name: 'PostgreSQL',
    async fresh(): Promise<DatabaseTarget> {
      server ??= await startPostgres();
      return { kind: 'postgres', url: await server.createDatabase() };
    },
  },
];

describe.each(backends)('listings on $name', (backend) => {
  it('keeps each server its own listings, sealed, with the last delivery and the last test', async () => {
    const root = await openStore(await backend.fresh());
    const key = newKey();
    const servers = new Servers(root, { current: key }, undefined, () => 1_000);
    await servers.load();
    await servers.setCredentials(A, { apiKey: 'api-key-a-0123456789', appId: 'app-a' });
    await servers.setCredentials(B, { apiKey: 'api-key-b-0123456789', appId: 'app-b' });
    expect(await root.webhookServerIds()).toEqual([]);

    expect(await servers.listings.add(A, 'topgg', WHS)).toBe(WHS);
    const made = await servers.listings.add(A, 'discordplace');
    expect(made.length).toBeGreaterThanOrEqual(32);
    await servers.listings.add(B, 'discadia');

    const stored = await root.listings(A);
    expect(stored.map((l) => l.site)).toEqual(['discordplace', 'topgg']);
    expect(JSON.stringify(stored)).not.toContain(WHS);
    expect(JSON.stringify(stored)).not.toContain(made);
    // A listing alone makes a server take deliveries.
    expect(await root.webhookServerIds()).toEqual([A, B]);
    // The same keys must open the listings' secrets: counted beside the credentials.
    expect(await root.sealedKeyUses()).toEqual([{ keyId: key.id, values: 7, servers: 2 }]);

    // Another process reads them from the store and opens them with the key.
    const other = new Servers(root, { current: key }, undefined);
    await other.load();
    expect(other.listings.checkFor(A, 'topgg')).toEqual({ secret: WHS });
    expect(other.listings.checkFor(A, 'discordplace')).toEqual({ secret: made });
    expect(other.listings.checkFor(A, 'discadia')).toBeUndefined();
    expect(other.listings.checkFor(B, 'topgg')).toBeUndefined();
    expect(other.listings.sites(B)).toEqual(['discadia']);

    await servers.listings.delivered(A, 'topgg', 5_000, true);
    await servers.listings.delivered(A, 'topgg', 7_000, false);
    await servers.listings.delivered(A, 'topgg', 6_000, true); // late: never moves back
    await other.reload(A);
    expect(other.listings.of(A).find((l) => l.site === 'topgg')).toEqual({
      site: 'topgg',
      createdAt: 1_000,
      lastDeliveryAt: 7_000,
      lastTestAt: 6_000,
      fromEnvironment: false,
      voteLengthMs: null,
      apiToken: false,
    });

    // A new vote length keeps the times; a new secret starts them afresh.
    await servers.listings.setVoteLength(A, 'topgg', 6 * HOUR);
    await other.reload(A);
    expect(other.listings.of(A).find((l) => l.site === 'topgg')).toMatchObject({ lastDeliveryAt: 7_000 });
    await servers.listings.add(A, 'topgg', WHS);
    await other.reload(A);
    expect(other.listings.of(A).find((l) => l.site === 'topgg')).toMatchObject({
      lastDeliveryAt: null,
      lastTestAt: null,
    });

    expect(await servers.listings.remove(A, 'topgg')).toBe(true);
    expect(await servers.listings.remove(A, 'topgg')).toBe(false);
    await servers.reset(B);
    expect(await root.listings()).toEqual([expect.objectContaining({ guildId: A, site: 'discordplace' })]);
    await root.close();
  }, 60_000);

  it('keeps a vote length per listing, changed without a new secret and kept when the secret is', async () => {
    const root = await openStore(await backend.fresh());
    const key = newKey();
    const servers = new Servers(root, { current: key }, undefined);
    await servers.load();
    const made = await servers.listings.add(A, 'discordplace', undefined, 12 * HOUR);
    await servers.listings.add(B, 'discordplace');
    expect(await servers.listings.setVoteLength(A, 'discadia', 2 * HOUR)).toBe(false);

    const other = new Servers(root, { current: key }, undefined);
    await other.load();
    expect(other.listings.checkFor(A, 'discordplace')).toEqual({ secret: made, voteLengthMs: 12 * HOUR });
    expect(other.listings.checkFor(B, 'discordplace')).toEqual({ secret: expect.any(String) });
    expect(other.listings.of(B)[0]).toMatchObject({ voteLengthMs: null });

    expect(await servers.listings.setVoteLength(A, 'discordplace', 6 * HOUR)).toBe(true);
    await other.reload(A);
    expect(other.listings.checkFor(A, 'discordplace')).toEqual({ secret: made, voteLengthMs: 6 * HOUR });
    expect(other.listings.of(A)[0]).toMatchObject({ site: 'discordplace', voteLengthMs: 6 * HOUR });

    // A new secret (rotate:true) keeps the length set.
    const rotated = await servers.listings.add(A, 'discordplace');
    await other.reload(A);
    expect(other.listings.checkFor(A, 'discordplace')).toEqual({ secret: rotated, voteLengthMs: 6 * HOUR });
    await root.close();
  }, 60_000);

  it("keeps the times a store of version 18 held in the listing's row", async () => {
    const target = await backend.fresh();
    const db = target.kind === 'postgres' ? await openPostgres(target.url) : await openSqlite(target.file);
    await migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= 18),
    );
    const key = newKey();
    await db.query(
      `INSERT INTO listings (guild_id, site, secret, vote_length_ms, created_at, last_delivery_at, last_test_at)
       VALUES ($1, 'topgg', $2, NULL, 1000, 7000, 6000), ($1, 'discadia', $3, NULL, 1000, NULL, NULL)`,
      [A, sealSecret({ current: key }, A, WHS), sealSecret({ current: key }, A, 'discadia-secret-0123')],
    );
    await db.close();
    const root = await openStore(target);
    const servers = new Servers(root, { current: key }, undefined);
    await servers.load();
    expect(
      servers.listings.of(A).map(({ site, lastDeliveryAt, lastTestAt }) => [site, lastDeliveryAt, lastTestAt]),
    ).toEqual([
      ['topgg', 7_000, 6_000],
      ['discadia', null, null],
    ]);
    await root.close();
  }, 60_000);

  it("keeps Top.gg's API token sealed, across a new secret and a re-seal, and counts it with the sealed values", async () => {
    const root = await openStore(await backend.fresh());
    const [first, second] = [newKey(), newKey()];
    const servers = new Servers(root, { current: first }, undefined);
    await servers.load();
    const token = 'eyJhbGciOiJIUzI1NiJ9.topgg-token.sig';
    expect(await servers.listings.setApiToken(A, 'topgg', token)).toBe(false);
    await servers.listings.add(A, 'topgg', WHS);
    expect(await servers.listings.setApiToken(A, 'topgg', token)).toBe(true);
    expect(JSON.stringify(await root.listings(A))).not.toContain(token);
    await servers.listings.add(A, 'topgg', 'whs_another_secret_0123456789');
    const other = new Servers(root, { current: first }, undefined);
    await other.load();
    expect(other.listings.topggToken(A)).toBe(token);
    expect(other.listings.withTopggToken()).toEqual([A]);
    expect(other.listings.of(A)[0]).toMatchObject({ site: 'topgg', apiToken: true });
    expect(await root.sealedKeyUses()).toEqual([{ keyId: first.id, values: 2, servers: 1 }]);

    const rotating = new Servers(root, { current: second, previous: first }, undefined);
    await rotating.load();
    await rotating.resealAll();
    const after = new Servers(root, { current: second }, undefined);
    await after.load();
    expect(after.listings.topggToken(A)).toBe(token);
    expect(await root.sealedKeyUses()).toEqual([{ keyId: second.id, values: 2, servers: 1 }]);
    await root.close();
  }, 60_000);

  it('re-seals the listings with rotate-secrets, and forgets those no key opens', async () => {
    const root = await openStore(await backend.fresh());
    const [first, second] = [newKey(), newKey()];
    const before = new Servers(root, { current: first }, undefined);
    await before.load();
    await before.listings.add(A, 'topgg', WHS);

    const rotating = new Servers(root, { current: second, previous: first }, undefined);
    await rotating.load();
    expect(await rotating.resealAll()).toBe(1);
    const after = new Servers(root, { current: second }, undefined);
    await after.load();
    expect(after.listings.checkFor(A, 'topgg')).toEqual({ secret: WHS });
    expect(await root.sealedKeyUses()).toEqual([{ keyId: second.id, values: 1, servers: 1 }]);

    const lost = new Servers(root, { current: newKey() }, undefined);
    await lost.load();
    expect(await lost.forgetLost()).toEqual({ values: 1, guildIds: [A] });
    expect(await root.listings()).toEqual([]);
    await root.close();
  }, 60_000);
});

describe('listings in single-server mode', () => {
  it('come from LISTING_<SITE>_SECRET, need no SECRETS_KEY and keep no row', async () => {
    const target = await backends[0]!.fresh();
    const root = await openStore(target);
    const servers = new Servers(root, undefined, {
      guildId: A,
      settings: {},
      credentials: { apiKey: 'k', appId: 'a' },
      webhookToken: 'token',
      listingSecrets: { topgg: WHS, discordplace: 'dp-secret-0123456789' },
    });
    await servers.load();
    expect(servers.listings.sites(A)).toEqual(['topgg', 'discordplace']);
    expect(servers.listings.checkFor(A, 'discordplace')).toEqual({ secret: 'dp-secret-0123456789' });
    await servers.listings.delivered(A, 'discordplace', 9_000, true);
    await servers.listings.delivered(A, 'discordplace', 8_000, false); // late: never moves back
    expect(servers.listings.of(A)[1]).toMatchObject({ lastTestAt: 9_000, fromEnvironment: true });
    expect(await root.listings()).toEqual([]);
    await root.close();
    if (target.kind === 'sqlite') expect(readFileSync(target.file).toString('latin1')).not.toContain(WHS);

    // After a restart the list is not ✘ "none yet": its last delivery and test come from the store.
    const reopened = await openStore(target);
    const restarted = new Servers(reopened, undefined, {
      guildId: A,
      settings: {},
      credentials: { apiKey: 'k', appId: 'a' },
      webhookToken: 'token',
      listingSecrets: { topgg: WHS, discordplace: 'dp-secret-0123456789' },
    });
    await restarted.load();
    expect(restarted.listings.of(A)).toEqual([
      expect.objectContaining({ site: 'topgg', lastDeliveryAt: null, lastTestAt: null, fromEnvironment: true }),
      expect.objectContaining({
        site: 'discordplace',
        lastDeliveryAt: 9_000,
        lastTestAt: 9_000,
        fromEnvironment: true,
      }),
    ]);
    await reopened.close();
  });

  it('take their vote length from LISTING_<SITE>_VOTE_HOURS', async () => {
    const root = await openStore(await backends[0]!.fresh());
    const servers = new Servers(root, undefined, {
      guildId: A,
      settings: {},
      credentials: undefined,
      webhookToken: undefined,
      listingSecrets: { discordplace: 'dp-secret-0123456789', discadia: 'discadia-secret-0123' },
      listingVoteHours: { discordplace: 3 },
    });
    await servers.load();
    expect(servers.listings.checkFor(A, 'discordplace')).toEqual({
      secret: 'dp-secret-0123456789',
      voteLengthMs: 3 * HOUR,
    });
    expect(servers.listings.checkFor(A, 'discadia')).toEqual({ secret: 'discadia-secret-0123' });
    expect(servers.listings.of(A).map((l) => l.voteLengthMs)).toEqual([3 * HOUR, null]);
    await root.close();
  });
});
