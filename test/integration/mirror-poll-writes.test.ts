import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { openStore, type StoreRoot } from '../../src/store/index.js';
import { Limiter } from '../../src/work/limiter.js';
import { nextSnowflake } from '../../tools/discord-standin/index.js';
import { pollUntil } from '../support/poll-until.js';
import { unpolledMirror } from '../support/unpolled-mirror.js';

/*
 * A process's servers take turns for their polls' store work (ServerPasses.pollWrites): with every
 * turn taken, a poll asks the service and waits to write, rather than queueing on the store's pool
 * beside the members' commands. Its list is written once a turn is free.
 */
let sandbox: Sandbox;
let root: StoreRoot;
beforeAll(async () => {
  sandbox = await startSandbox();
  root = await openStore({ kind: 'sqlite', file: ':memory:' });
});
afterAll(async () => {
  await root?.close();
  await sandbox?.close();
});

describe("a poll's store work", () => {
  it('waits for a turn after the service answered, and is written once one is free', async () => {
    const voter = nextSnowflake();
    sandbox.setVote(voter, 3_600_000);
    const turns = new Limiter(1);
    let freeTheTurn = () => undefined as void;
    const held = turns.run(() => new Promise<void>((resolve) => (freeTheTurn = resolve)));
    const store = root.forServer(nextSnowflake());
    const mirror = unpolledMirror(sandbox, store, { writeTurns: turns });
    const polling = mirror.poll();
    await pollUntil(() => turns.waiting === 1, 'the poll waiting for its turn to write');
    expect(sandbox.requests.filter((request) => request.route === 'listVotes')).toHaveLength(1);
    expect(await store.mirrorEntries()).toEqual([]);
    freeTheTurn();
    await Promise.all([held, polling]);
    expect((await store.mirrorEntries()).map((entry) => entry.userId)).toContain(voter);
    expect(turns.active).toBe(0);
    await mirror.stop();
  });
});
