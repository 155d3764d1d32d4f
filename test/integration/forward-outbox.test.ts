import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openStore, type Store, type StoreRoot } from '../../src/store/index.js';
import { storeBackends } from '../support/store-backends.js';
import { listVote } from '../support/list-vote.js';

// Issue 51: every vote the ledger takes is stored for each forwarding destination in the ledger's
// own transaction, and the outbox hands out each destination's oldest delivery, one at a time.

const HOUR = 3_600_000;
const SERVER = '111111111111111111';
const QUIET_SERVER = '222222222222222222';
const ALICE = '284102390141648897';
const BOB = '593031275438718986';
const T = Date.UTC(2026, 10, 15, 12);
/** Later than any row's next try: rows are written due at the real time they are stored. */
const FAR = Date.now() + 1_000 * HOUR;

const backends = storeBackends('bot-forward-outbox-');

const vote = listVote;

const destination = (guildId: string, id: string, createdAt: number) => ({
  guildId,
  id,
  url: `https://${id}.example/votes`,
  secret: 'sealed-secret',
  secretEnd: 'abcd',
  fromEnvironment: false,
  createdAt,
});

describe.each(backends)('the forwarding outbox on $name', (backend) => {
  let root: StoreRoot;
  let store: Store;
  beforeAll(async () => {
    root = await openStore(await backend.fresh());
    store = root.forServer(SERVER);
    await root.saveForwardDestination(destination(SERVER, 'a', 1));
    await root.saveForwardDestination(destination(SERVER, 'b', 2));
  }, 60_000);
  afterAll(() => root?.close());

  it('stores one delivery per destination for each vote, with the body the issue describes', async () => {
    await store.acceptVotes([vote(ALICE, 'topgg', T, { weight: 2 }), vote(ALICE, 'discadia', T + 1_000)]);
    const due = await root.dueForwards(FAR, 10);
    expect(due.map((d) => d.destinationId).sort()).toEqual(['a', 'b']);
    const first = due.find((d) => d.destinationId === 'a')!;
    expect(JSON.parse(first.body)).toEqual({
      type: 'vote.create',
      id: first.deliveryId,
      data: {
        guild_id: SERVER,
        member_id: ALICE,
        site: 'topgg',
        weight: 2,
        voted_at: new Date(T).toISOString(),
        expires_at: new Date(T + 12 * HOUR).toISOString(),
        totals: { month: 2, all_time: 2, streak: 1 },
      },
    });
    expect(first.url).toBe('https://a.example/votes');
    const both = await root.forwardDestinations(SERVER);
    expect(both.map((d) => [d.id, d.waiting])).toEqual([
      ['a', 2],
      ['b', 2],
    ]);
  });

  it("hands out a destination's deliveries in the ledger's order, the next only once the first is settled", async () => {
    const [head] = (await root.dueForwards(FAR, 10)).filter((d) => d.destinationId === 'a');
    expect(JSON.parse(head!.body).data.site).toBe('topgg');
    const retryAt = FAR - HOUR;
    await root.forwardSettled(head!, { outcome: 'retrying', status: 503 }, T, retryAt);
    // Still its head, waiting: the later vote does not overtake it.
    expect((await root.dueForwards(retryAt - 1, 10)).map((d) => d.destinationId)).toEqual(['b']);
    expect(await root.nextForwardDue()).toBeLessThan(retryAt);
    const again = (await root.dueForwards(retryAt, 10)).find((d) => d.destinationId === 'a')!;
    expect(again.deliveryId).toBe(head!.deliveryId);
    expect(again.attempts).toBe(1);
    await root.forwardSettled(again, { outcome: 'delivered', status: 200 }, T + 60_000);
    const next = (await root.dueForwards(FAR, 10)).find((d) => d.destinationId === 'a')!;
    expect(JSON.parse(next.body).data).toMatchObject({ site: 'discadia', totals: { month: 3, all_time: 3 } });
    const [a] = await root.forwardDestinations(SERVER);
    expect(a).toMatchObject({ lastResult: { outcome: 'delivered', status: 200 }, failingSince: null, waiting: 1 });
  });

  it('shows a failing destination since its first failure, and clears it when it delivers', async () => {
    const head = (await root.dueForwards(FAR, 10)).find((d) => d.destinationId === 'b')!;
    await root.forwardSettled(head, { outcome: 'retrying', reason: 'timeout' }, T + 5, T + 10);
    await root.forwardSettled(head, { outcome: 'retrying', status: 500 }, T + 10, T + 20);
    const b = (await root.forwardDestinations(SERVER)).find((d) => d.id === 'b')!;
    expect(b).toMatchObject({ lastResult: { outcome: 'retrying', status: 500 }, failingSince: T + 5, lastAt: T + 10 });
    await root.forwardSettled(head, { outcome: 'gaveUp', status: 404 }, T + 20);
    const after = (await root.forwardDestinations(SERVER)).find((d) => d.id === 'b')!;
    expect(after).toMatchObject({ lastResult: { outcome: 'gaveUp', status: 404 }, waiting: 1 });
  });

  it('forwards nothing for a repeat, a seed row, or a server without destinations', async () => {
    const before = (await root.forwardDestinations(SERVER)).map((d) => d.waiting);
    await store.acceptVotes([vote(ALICE, 'topgg', T + 2_000)]);
    await store.acceptVotes([vote(BOB, 'guilds', T - HOUR, { source: 'seed' })]);
    expect((await root.forwardDestinations(SERVER)).map((d) => d.waiting)).toEqual(before);
    await root.forServer(QUIET_SERVER).acceptVotes([vote(BOB, 'topgg', T)]);
    expect((await root.dueForwards(FAR, 10)).filter((d) => d.guildId === QUIET_SERVER)).toEqual([]);
  });

  it("drops a removed destination's waiting deliveries with it", async () => {
    expect(await root.removeForwardDestination(SERVER, 'b')).toBe(true);
    expect((await root.dueForwards(FAR, 10)).map((d) => d.destinationId)).toEqual(['a']);
    expect(await root.removeForwardDestination(SERVER, 'b')).toBe(false);
  });

  it("keeps the ledger's order for many votes taken at once (a poll's list)", async () => {
    const BATCH = '333333333333333333';
    await root.saveForwardDestination(destination(BATCH, 'c', 3));
    const members = Array.from({ length: 250 }, (_, i) => String(284102390141648897n + BigInt(i)));
    await root.forServer(BATCH).acceptVotes(members.map((m, i) => vote(m, 'discadia', T + i)));
    const order: string[] = [];
    for (;;) {
      const head = (await root.dueForwards(FAR, 10)).find((d) => d.guildId === BATCH);
      if (!head) break;
      order.push(String(JSON.parse(head.body).data.member_id));
      await root.forwardSettled(head, { outcome: 'delivered', status: 200 }, T);
    }
    expect(order).toEqual(members);
  });

  it("forgets a server's destinations and deliveries with the server", async () => {
    await root.forgetServer(SERVER);
    expect(await root.forwardDestinations(SERVER)).toEqual([]);
    expect(await root.dueForwards(FAR, 10)).toEqual([]);
    expect(await root.nextForwardDue()).toBeUndefined();
  });
});
