import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ASSUMED_VOTE_PERIOD_MS } from '../../src/mirror/mirror-options.js';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { openStore, type StoreRoot } from '../../src/store/index.js';
import { pollUntil } from '../support/poll-until.js';
import { nextSnowflake } from '../../tools/discord-standin/index.js';
import { quietVotes } from '../support/quiet-votes.js';
import { unpolledMirror } from '../support/unpolled-mirror.js';

/*
 * A vote delivered by webhook is stored with an assumed 12-hour period and refreshed from the
 * service soon after, in memory. A process killed in between (test/e2e/scale-out.test.ts) left the
 * assumed period: with polls off, its successor never learned the real end, so the voter role and
 * the reminder came 12 hours late. Started again, the mirror refreshes those members.
 */
let sandbox: Sandbox;
let root: StoreRoot;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox();
  dir = mkdtempSync(path.join(tmpdir(), 'bot-unconfirmed-'));
  root = await openStore({ kind: 'sqlite', file: path.join(dir, 'bot.sqlite') });
});
afterAll(async () => {
  await root?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('votes a stop left unrefreshed', () => {
  it('are refreshed from the service when the mirror starts with polls off; confirmed ones are not', async () => {
    const store = root.forServer(nextSnowflake());
    const [unconfirmed, confirmed] = [nextSnowflake(), nextSnowflake()];
    const at = Date.now();
    // As the inbox stores a delivered vote before its refresh: the assumed period.
    await store.acceptVote({
      userId: unconfirmed,
      at,
      double: false,
      source: 'webhook',
      periodEndsAt: at + ASSUMED_VOTE_PERIOD_MS,
    });
    // Refreshed before the stop: the service's own end.
    await store.acceptVote({ userId: confirmed, at, double: false, source: 'webhook', periodEndsAt: at + 90_000 });
    sandbox.setVote(unconfirmed, 60_000);
    sandbox.setVote(confirmed, 90_000);

    const running: Array<[string, number]> = [];
    const mirror = unpolledMirror(sandbox, store, {
      votes: quietVotes({ running: async (userId, expiresAt) => void running.push([userId, expiresAt]) }),
    });
    mirror.start();
    await pollUntil(() => running.length > 0, 'the first refresh', { everyMs: 20 });
    // Refreshes run one after another, and a member asked for now comes after every one already
    // asked for: once the sentinel's is in, a refresh of the confirmed voter would be too.
    const sentinel = nextSnowflake();
    sandbox.setVote(sentinel, 30_000);
    mirror.refreshSoon(sentinel);
    await pollUntil(() => running.some(([userId]) => userId === sentinel), "the sentinel's refresh", { everyMs: 20 });
    await mirror.stop();

    expect(running.map(([userId]) => userId)).toEqual([unconfirmed, sentinel]);
    expect(running[0]![1] - at).toBeGreaterThan(55_000);
    expect(running[0]![1] - at).toBeLessThan(65_000);
    expect((await store.mirrorEntry(unconfirmed))?.expiresAt).toBe(running[0]![1]);
    expect(await store.unconfirmedVoters(Date.now(), ASSUMED_VOTE_PERIOD_MS)).toEqual([]);
  });
});
