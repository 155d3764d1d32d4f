import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RequestWindow } from '../../src/core/request-window.js';
import { HOUR_MS, type AdaptedSiteId, type ListEvent } from '../../src/lists/index.js';
import { TopggApi } from '../../src/lists/topgg-api.js';
import { listRoute } from '../../src/runtime/list-route.js';
import { TOPGG_SILENCE_MS, TopggRecovery } from '../../src/runtime/topgg-recovery.js';
import { secretKey } from '../../src/secrets/secret-box.js';
import { Listings } from '../../src/servers/listings.js';
import { openStore, type StoreRoot } from '../../src/store/index.js';
import { startTopggStandIn, type TopggStandIn } from '../../tools/topgg-standin.js';
import { capturedLog, type LogLine } from '../support/captured-log.js';
import { pollUntil } from '../support/poll-until.js';

// The process's reads of Top.gg votes missed while down (issue 51, item 3), on an injected clock:
// at start from 12 hours back when the ledger has none, then every 10 minutes while the webhook is
// silent; a refused token parked until it changes, a 429's hour kept, a fault retried with backoff.

const GUILD = '111111111111111111';
const MINUTE = 60_000;
const keys = { current: secretKey(randomBytes(32).toString('base64'), 'SECRETS_KEY') };
const member = (n: number) => `3841023901416${String(n).padStart(5, '0')}`;

let topgg: TopggStandIn;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'bot-topgg-reads-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Setup {
  root: StoreRoot;
  listings: Listings;
  recovery: TopggRecovery;
  clock: { now: number };
  lines: LogLine[];
}
let current: Setup | undefined;
afterEach(async () => {
  await current?.recovery.stop();
  await current?.root.close();
  await topgg?.close();
  current = undefined;
});

/** A store, a Top.gg listing with the stand-in's token, and the reads, all on one clock. */
async function setUp(
  name: string,
  { token, perHour, pageSize = 20 }: { token?: string; perHour?: number; pageSize?: number } = {},
): Promise<Setup> {
  const clock = { now: Date.UTC(2026, 10, 15, 12) };
  topgg = await startTopggStandIn({ pageSize, now: () => clock.now });
  const root = await openStore({ kind: 'sqlite', file: path.join(dir, `${name}.sqlite`) });
  const listings = new Listings(
    root,
    keys,
    () => keys,
    undefined,
    () => clock.now,
  );
  await listings.add(GUILD, 'topgg', 'whs_0123456789abcdefghijklmnopqrstuv');
  await listings.setApiToken(GUILD, 'topgg', token ?? topgg.token);
  const { logger, lines } = capturedLog([topgg.token]);
  const store = root.forServer(GUILD);
  const handle = async (event: { payload: unknown; receivedAt: number }) =>
    listRoute(event.payload as ListEvent & { site: AdaptedSiteId }, event.receivedAt, {
      store,
      votes: { accepted: () => undefined, newVote: () => Promise.resolve() },
      logger,
      listingDelivered: (site, at, test) => listings.delivered(GUILD, site, at, test),
    });
  // `perHour`: a window whose waits are real (stopping must end them); else the waits move the clock.
  const api =
    perHour === undefined
      ? new TopggApi({
          baseUrl: topgg.url,
          window: new RequestWindow(60, MINUTE, () => clock.now),
          sleep: async (ms) => void (clock.now += ms),
        })
      : new TopggApi({ baseUrl: topgg.url, window: new RequestWindow(perHour, HOUR_MS) });
  const recovery = new TopggRecovery({
    listings,
    store: root,
    api,
    runtimeOf: (guildId) => (guildId === GUILD ? { handle } : undefined),
    logger,
    now: () => clock.now,
    tickMs: 3_600_000,
  });
  current = { root, listings, recovery, clock, lines };
  return current;
}

/** One pass, and how many requests the stand-in saw in it. */
async function pass({ recovery }: Setup): Promise<number> {
  const before = topgg.requests;
  await recovery.pass();
  return topgg.requests - before;
}

describe('reading back Top.gg votes', () => {
  it('reads at start from 12 hours back, then again only while the webhook stays silent 10 minutes', async () => {
    const setup = await setUp('cadence');
    const { clock, recovery, root, listings } = setup;
    topgg.vote(member(900), { at: clock.now - 13 * HOUR_MS });
    for (let n = 0; n < 50; n++) topgg.vote(member(n), { at: clock.now - 6 * HOUR_MS + n * MINUTE });
    await recovery.start();
    await recovery.pass();
    const waiting = await root.forServer(GUILD).waitingVotes(100);
    expect(waiting.map((v) => v.userId).sort()).toEqual(Array.from({ length: 50 }, (_, n) => member(n)));
    expect(waiting.every((v) => v.recovered && v.site === 'topgg')).toBe(true);
    expect(await pass(setup)).toBe(0);
    clock.now += TOPGG_SILENCE_MS;
    // From the last vote seen: its page (that vote again, taken once) and the empty page.
    expect(await pass(setup)).toBe(2);
    expect(await root.forServer(GUILD).waitingVotes(100)).toHaveLength(50);
    await listings.delivered(GUILD, 'topgg', clock.now, false);
    clock.now += TOPGG_SILENCE_MS;
    expect(await pass(setup)).toBe(0);
    clock.now += MINUTE;
    expect(await pass(setup)).toBe(2);
    expect(topgg.tooMany).toBe(0);
  });

  it('parks a refused token, says so once, and reads as soon as the token changes', async () => {
    const setup = await setUp('parked', { token: 'a-token-top-gg-does-not-know-0123' });
    const { clock, recovery, root, listings, lines } = setup;
    topgg.vote(member(1), { at: clock.now - HOUR_MS });
    await recovery.start();
    await recovery.pass();
    expect(topgg.answered(401)).toBe(1);
    clock.now += 2 * HOUR_MS;
    expect(await pass(setup)).toBe(0);
    expect(lines.filter((l) => l.msg.startsWith('Top.gg refused the API token'))).toHaveLength(1);
    expect((await root.topggRecovery(GUILD))?.parked?.status).toBe(401);
    expect(JSON.stringify(lines)).not.toContain('a-token-top-gg-does-not-know');
    await listings.setApiToken(GUILD, 'topgg', topgg.token);
    expect(await pass(setup)).toBe(2);
    expect(await root.topggRecovery(GUILD)).toBeUndefined();
    expect(await root.forServer(GUILD).waitingVotes(10)).toHaveLength(1);
  });

  it('asks nothing while a 429 blocks the token, even after a restart, and reads once the block ends', async () => {
    const setup = await setUp('blocked');
    const { clock, root } = setup;
    await root.saveTopggRecovery(GUILD, { blockedUntil: clock.now + HOUR_MS });
    await setup.recovery.start();
    await setup.recovery.pass();
    expect(topgg.requests).toBe(0);
    clock.now += HOUR_MS;
    expect(await pass(setup)).toBe(1);
  });

  it('retries a fault with a growing wait, never before it ends', async () => {
    const setup = await setUp('faults');
    const { clock, recovery, lines } = setup;
    topgg.failWith(503);
    await recovery.start();
    await recovery.pass();
    expect(topgg.answered(503)).toBe(1);
    clock.now += MINUTE - 1;
    expect(await pass(setup)).toBe(0);
    clock.now += 1;
    expect(await pass(setup)).toBe(1);
    clock.now += MINUTE;
    expect(await pass(setup)).toBe(0);
    clock.now += MINUTE;
    topgg.failWith(undefined);
    expect(await pass(setup)).toBe(1);
    expect(lines.filter((l) => l.msg.startsWith('Top.gg API not answering'))).toHaveLength(1);
    expect(lines.some((l) => l.msg === 'Top.gg votes read back')).toBe(true);
  });

  it('stops at once while a read waits for the limit, keeping the pages it took', async () => {
    const setup = await setUp('stopping', { perHour: 1, pageSize: 1 });
    const { clock, recovery, root, lines } = setup;
    topgg.vote(member(1), { at: clock.now - HOUR_MS });
    topgg.vote(member(2), { at: clock.now - HOUR_MS + MINUTE });
    await recovery.start();
    await pollUntil(async () => (await root.forServer(GUILD).waitingVotes(10)).length === 1, 'the first page taken');
    await recovery.stop();
    expect(topgg.requests).toBe(1);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });

  it("answers /vote's question with a running vote the ledger lacks, and takes it in as read back", async () => {
    const setup = await setUp('member');
    const { clock, recovery, root } = setup;
    await recovery.start();
    await recovery.pass();
    const vote = topgg.vote(member(7), { at: clock.now - HOUR_MS });
    expect(await recovery.memberVote(GUILD, member(7))).toEqual({ votedAt: vote.at, endsAt: vote.until, weight: 1 });
    expect(await recovery.memberVote(GUILD, member(8))).toBeUndefined();
    await pollUntil(async () => (await root.forServer(GUILD).waitingVotes(10)).length === 1, 'the vote taken');
    expect(await root.forServer(GUILD).waitingVotes(10)).toEqual([
      expect.objectContaining({ userId: member(7), site: 'topgg', recovered: true }),
    ]);
    expect(await recovery.memberVote('999999999999999999', member(7))).toBeUndefined();
  });
});
