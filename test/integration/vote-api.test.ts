import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '../../src/core/log.js';
import { startWebhookReceiver } from '../../src/processes/webhook-receiver.js';
import { hashApiKey, newApiKey } from '../../src/secrets/api-keys.js';
import { Servers } from '../../src/servers/servers.js';
import { openStore, type NewVote, type StoreRoot } from '../../src/store/index.js';
import { DeliveryLog } from '../../src/webhooks/delivery-log.js';
import type { Receiver } from '../../src/webhooks/receiver.js';
import { apiClient } from '../support/api-answers.js';
import { storeBackends } from '../support/store-backends.js';
import { listVote } from '../support/list-vote.js';

// The vote API over the receiver's real HTTP server on 127.0.0.1 and a real store, on both backends:
// what the ledger holds, paged, and what a request that cannot be read gets. Every answer is checked
// against the OpenAPI document the API serves.

const SERVER = '111111111111111111';
const OTHER = '222222222222222222';
const VOTER = '284102390141648897';
const LATE = '593031275438718986';
const HOUR = 3_600_000;
const logger = createLogger('silent');

const vote = (userId: string, at: number, site: string, extra: Partial<NewVote> = {}) =>
  listVote(userId, site, at, extra);

describe.each(storeBackends('bot-vote-api-'))('the vote API on $name', (backend) => {
  let root: StoreRoot;
  let receiver: Receiver;
  let deliveries: DeliveryLog;
  let api: ReturnType<typeof apiClient>;
  const now = Date.now();
  let made = 0;
  /** A new key of the server: each case its own, so no case spends another's burst of 10. */
  async function keyOf(guildId: string): Promise<string> {
    const k = newApiKey();
    made += 1;
    const record = {
      guildId,
      name: `bot-${made}`,
      keyHash: hashApiKey(k),
      last4: k.slice(-4),
      createdAt: now,
      createdBy: VOTER,
    };
    expect(await root.addApiKey(record, 100)).toBe('added');
    return k;
  }

  beforeAll(async () => {
    root = await openStore(await backend.fresh());
    const servers = new Servers(root, undefined, undefined);
    await servers.load();
    const store = root.forServer(SERVER);
    await store.acceptVote(vote(VOTER, now - 14 * HOUR, 'guilds'));
    await store.acceptVote(vote(VOTER, now - 2 * HOUR, 'guilds', { double: true }));
    await store.acceptVote(vote(VOTER, now - HOUR, 'topgg', { siteEventId: 't1' }));
    // Found by the first poll: it marks a period, and is neither counted nor listed.
    await store.acceptVote(vote(LATE, now - 3 * HOUR, 'guilds', { source: 'seed' }));
    await root.forServer(OTHER).acceptVote(vote(VOTER, now - HOUR, 'guilds'));
    deliveries = new DeliveryLog({ store: root, logger });
    receiver = await startWebhookReceiver({
      webhook: {
        host: '127.0.0.1',
        port: 0,
        path: '/webhook',
        token: undefined,
        publicUrl: undefined,
        maxConnections: 50,
        api: { keys: [] },
      },
      database: { kind: 'sqlite', file: 'unused: the store is given' },
      servers,
      store: root,
      logger,
      deliveries,
      inbox: { wake: () => undefined },
    });
    api = apiClient(receiver.url.replace(/\/webhook$/, ''));
  });

  afterAll(async () => {
    await receiver?.close();
    await deliveries?.stop();
    await root?.close();
  });

  it("answers a member's running votes on each list with their weights, counts and streak", async () => {
    const key = await keyOf(SERVER);
    const answer = await api.get(`/api/v1/guilds/${SERVER}/members/${VOTER}/vote`, key);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      voting: true,
      lists: [
        {
          site: 'guilds',
          voted_at: new Date(now - 2 * HOUR).toISOString(),
          expires_at: new Date(now + 10 * HOUR).toISOString(),
          weight: 2,
        },
        {
          site: 'topgg',
          voted_at: new Date(now - HOUR).toISOString(),
          expires_at: new Date(now + 11 * HOUR).toISOString(),
          weight: 1,
        },
      ],
      month: expect.any(Number),
      all_time: 4,
      streak: 2,
    });
    // This month's count is at most the total: the vote 14 h ago may be last month's.
    expect(answer.body.month).toBeGreaterThanOrEqual(3);
    expect(answer.body.month).toBeLessThanOrEqual(4);
  });

  it('answers voting:false for a member with no running vote, and leaves a seed vote uncounted', async () => {
    const key = await keyOf(SERVER);
    const answer = await api.get(`/api/v1/guilds/${SERVER}/members/${LATE}/vote`, key);
    expect(answer.body).toMatchObject({ voting: true, month: 0, all_time: 0 });
    const none = await api.get(`/api/v1/guilds/${SERVER}/members/100000000000000001/vote`, key);
    expect(none.body).toEqual({ voting: false, lists: [], month: 0, all_time: 0, streak: 0 });
  });

  it('pages the ledger in the order it took the votes, and a cursor goes on where the last page ended', async () => {
    const key = await keyOf(SERVER);
    const first = await api.get(`/api/v1/guilds/${SERVER}/votes?limit=2`, key);
    expect((first.body.data as Array<{ site: string }>).map((v) => v.site)).toEqual(['guilds', 'guilds']);
    expect(first.body.data).toEqual([
      expect.objectContaining({ member_id: VOTER, weight: 1 }),
      expect.objectContaining({ member_id: VOTER, weight: 2 }),
    ]);
    const second = await api.get(`/api/v1/guilds/${SERVER}/votes?limit=2&cursor=${String(first.body.cursor)}`, key);
    expect(second.body.data).toEqual([expect.objectContaining({ site: 'topgg', member_id: VOTER })]);
    // Caught up: the same cursor again, to ask for newer votes later.
    const third = await api.get(`/api/v1/guilds/${SERVER}/votes?cursor=${String(second.body.cursor)}`, key);
    expect(third.body).toEqual({ data: [], cursor: second.body.cursor });
    await root.forServer(SERVER).acceptVote(vote(LATE, now, 'discadia'));
    const newer = await api.get(`/api/v1/guilds/${SERVER}/votes?cursor=${String(second.body.cursor)}`, key);
    expect(newer.body.data).toEqual([expect.objectContaining({ member_id: LATE, site: 'discadia' })]);
  });

  it('keeps to the votes cast since a time, and to the key’s own server', async () => {
    const [key, otherKey] = [await keyOf(SERVER), await keyOf(OTHER)];
    const since = new Date(now - 90 * 60_000).toISOString();
    const recent = await api.get(`/api/v1/guilds/${SERVER}/votes?since=${since}`, key);
    expect((recent.body.data as Array<{ site: string }>).map((v) => v.site)).toEqual(['topgg', 'discadia']);
    const other = await api.get(`/api/v1/guilds/${OTHER}/votes`, otherKey);
    expect(other.body.data).toEqual([expect.objectContaining({ member_id: VOTER, site: 'guilds', weight: 1 })]);
    const empty = await api.get(`/api/v1/guilds/${OTHER}/votes?since=2099-01-01T00:00:00Z`, otherKey);
    expect(empty.body).toEqual({ data: [], cursor: null });
  });

  it.each([
    ['since=yesterday', /since/],
    ['limit=501', /limit/],
    ['limit=0', /limit/],
    ['cursor=abc', /cursor/],
    ['page=2', /page/],
  ])('refuses ?%s with 400 and a message naming it', async (query, named) => {
    const key = await keyOf(SERVER);
    const answer = await api.get(`/api/v1/guilds/${SERVER}/votes?${query}`, key);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(named);
  });

  it('refuses a member that is no user id with 400, and a server id that is none with 404', async () => {
    const key = await keyOf(SERVER);
    expect((await api.get(`/api/v1/guilds/${SERVER}/members/bob/vote`, key)).status).toBe(400);
    expect((await api.get(`/api/v1/guilds/not-a-server/votes`, key)).status).toBe(404);
  });

  it("keeps a server's keys by name: a name taken or a full server adds nothing, and forgetting the server drops them", async () => {
    const third = '333333333333333333';
    const record = (name: string) => ({
      guildId: third,
      name,
      keyHash: hashApiKey(newApiKey()),
      last4: 'abcd',
      createdAt: now,
      createdBy: VOTER,
    });
    expect(await root.addApiKey(record('one'), 2)).toBe('added');
    expect(await root.addApiKey(record('one'), 2)).toBe('taken');
    expect(await root.addApiKey(record('two'), 2)).toBe('added');
    expect(await root.addApiKey(record('three'), 2)).toBe('full');
    expect((await root.apiKeys(third)).map((key) => key.name)).toEqual(['one', 'two']);
    expect(await root.removeApiKey(third, 'nope')).toBeUndefined();
    const kept = (await root.apiKeys(third))[0]!;
    expect(await root.apiKeyByHash(kept.keyHash)).toEqual(kept);
    await root.forgetServer(third);
    expect(await root.apiKeys(third)).toEqual([]);
    expect(await root.apiKeyByHash(kept.keyHash)).toBeUndefined();
  });

  it('checked every answer against the document', () => {
    expect(api.checked).toBeGreaterThan(15);
  });
});
