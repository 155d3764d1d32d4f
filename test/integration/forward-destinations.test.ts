import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { secretKey, type SecretKeys } from '../../src/secrets/secret-box.js';
import { Forwards } from '../../src/servers/forwards.js';
import { Servers } from '../../src/servers/servers.js';
import { openStore, type StoreRoot } from '../../src/store/index.js';
import { storeBackends } from '../support/store-backends.js';

// The forwarding destinations (issue 51): secrets sealed like the lists', opened only to sign a
// request; FORWARD_URLS kept as the one server's destinations across restarts; lost keys forgotten.

const SERVER = '111111111111111111';
const HOUR = 3_600_000;
const key = (seed: number): SecretKeys => ({ current: secretKey(Buffer.alloc(32, seed).toString('base64'), 'K') });
const backends = storeBackends('bot-forward-destinations-');

describe.each(backends)('forwarding destinations on $name', (backend) => {
  let root: StoreRoot;
  beforeAll(async () => {
    root = await openStore(await backend.fresh());
  }, 60_000);
  afterAll(() => root?.close());

  it('keeps a made secret sealed, opens it only when asked, and a rotation keeps the id', async () => {
    const servers = new Servers(root, key(1), undefined);
    await servers.load();
    const made = await servers.forwards.make(SERVER, 'https://a.example/votes');
    expect(made.secret).toMatch(/^vrf_[A-Za-z0-9_-]{32}$/);
    const [stored] = await root.forwardDestinations(SERVER);
    expect(stored!.secret).not.toContain(made.secret);
    expect(stored!.secretEnd).toBe(made.secret.slice(-4));
    expect(servers.forwards.secretOf(stored!)).toBe(made.secret);
    const rotated = await servers.forwards.make(SERVER, 'https://a.example/votes', stored);
    expect(rotated.destination.id).toBe(stored!.id);
    expect(rotated.secret).not.toBe(made.secret);
    expect(new Forwards(root, key(2), () => key(2), undefined).secretOf(stored!)).toBeUndefined();
  });

  it('forgets, with --forget-lost, the destinations whose secret no key opens', async () => {
    const other = new Servers(root, key(9), undefined);
    await other.load();
    const { guildIds } = await other.forgetLost();
    expect(guildIds).toContain(SERVER);
    expect(await root.forwardDestinations(SERVER)).toEqual([]);
  });

  it('makes FORWARD_URLS the one server’s destinations, keeping what waits across a new FORWARD_SECRET', async () => {
    const environment = (urls: string[], secret: string) =>
      new Forwards(
        root,
        undefined,
        () => key(1),
        { guildId: '333333333333333333', urls, secret },
        () => 5 * HOUR,
      );
    const first = environment(['https://a.example/', 'https://b.example/'], 'env-secret-one-0123456789');
    await first.loadEnvironment();
    const made = await first.of('333333333333333333');
    expect(made.map((d) => d.url).sort()).toEqual(['https://a.example/', 'https://b.example/']);
    const idOfA = made.find((d) => d.url === 'https://a.example/')!.id;
    await root.forServer('333333333333333333').acceptVotes([
      {
        userId: '284102390141648897',
        at: Date.now(),
        double: false,
        source: 'webhook',
        periodEndsAt: Date.now() + HOUR,
      },
    ]);
    const second = environment(['https://a.example/'], 'env-secret-two-9876543210');
    await second.loadEnvironment();
    const [kept, ...none] = await second.of('333333333333333333');
    expect(none).toEqual([]);
    expect(kept).toMatchObject({ id: idOfA, fromEnvironment: true, secret: null, secretEnd: '3210', waiting: 1 });
    expect(second.secretOf(kept!)).toBe('env-secret-two-9876543210');
  });

  it('keeps FORWARD_URLS as the one server’s destinations after /setup reset, with nothing waiting', async () => {
    const guildId = '444444444444444444';
    const servers = new Servers(root, key(1), {
      guildId,
      settings: { reviewChannelId: '900000000000000001', moderatorRoleIds: [] },
      credentials: { apiKey: 'env-api-key', appId: 'env-app-id' },
      webhookToken: undefined,
      forwardUrls: ['https://c.example/votes'],
      forwardSecret: 'env-secret-three-0123456789',
    });
    await servers.load();
    const made = await servers.forwards.make(guildId, 'https://d.example/votes');
    await servers.reset(guildId);
    const after = await servers.forwards.of(guildId);
    expect(after.map((d) => [d.url, d.fromEnvironment])).toEqual([['https://c.example/votes', true]]);
    expect(after[0]!.waiting).toBe(0);
    expect(after.map((d) => d.id)).not.toContain(made.destination.id);
  });
});
