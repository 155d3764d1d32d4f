import { describe, expect, it } from '@jest/globals';
import { openStore, type NewVote, type StoreRoot, type TopggRecoveryState } from '../../src/store/index.js';
import { storeBackends } from '../support/store-backends.js';

// Issue 51, item 3: Top.gg votes read back from its API after downtime go in the ledger beside the
// webhook's, keyed by member and created_at (the list gives no vote id): a vote heard both ways is
// one vote, whichever way came first; what stops a server's reads survives a restart.

const HOUR = 3_600_000;
const SERVER = '111111111111111111';
const OTHER_SERVER = '222222222222222222';
const VOTER = '284102390141648897';
const T = Date.UTC(2026, 10, 15, 8);
const WINDOW = HOUR;

const delivered = (at: number, id: string): NewVote => ({
  userId: VOTER,
  at,
  double: false,
  source: 'webhook',
  periodEndsAt: at + 12 * HOUR,
  site: 'topgg',
  siteEventId: id,
  weight: 1,
  dedupeWindowMs: WINDOW,
});
const readBack = (at: number, extra: Partial<NewVote> = {}): NewVote => ({
  userId: VOTER,
  at,
  double: false,
  source: 'recovered',
  periodEndsAt: at + 12 * HOUR,
  site: 'topgg',
  weight: 1,
  dedupeWindowMs: WINDOW,
  ...extra,
});

const backends = storeBackends('bot-topgg-recovery-');

describe.each(backends)('Top.gg votes read back on $name', (backend) => {
  const withStore = async (run: (root: StoreRoot) => Promise<void>) => {
    const root = await openStore(await backend.fresh());
    try {
      await run(root);
    } finally {
      await root.close();
    }
  };

  it('takes a delivered vote read back later once, and the one read back first once when its delivery comes', async () => {
    await withStore(async (root) => {
      const store = root.forServer(SERVER);
      expect(await store.acceptVote(delivered(T, 'v-1'))).toBe(true);
      expect(await store.acceptVote(readBack(T))).toBe(false);
      expect(await store.acceptVote(readBack(T + 12 * HOUR))).toBe(true);
      expect(await store.acceptVote(delivered(T + 12 * HOUR, 'v-2'))).toBe(false);
      const waiting = await store.waitingVotes(10);
      expect(waiting.map((v) => [v.at, v.recovered])).toEqual([
        [T, false],
        [T + 12 * HOUR, true],
      ]);
    });
  });

  it('takes a vote read back late that is older than the latest delivered one, and the same read twice once', async () => {
    await withStore(async (root) => {
      const store = root.forServer(SERVER);
      expect(await store.acceptVote(delivered(T + 13 * HOUR, 'v-late'))).toBe(true);
      expect(await store.acceptVotes([readBack(T), readBack(T)])).toEqual([VOTER]);
      expect(await store.acceptVote(readBack(T))).toBe(false);
      const counted = await store.votesBetweenBySite(T - HOUR, T + 26 * HOUR);
      expect(counted).toEqual([{ userId: VOTER, votes: 2, bySite: { topgg: 2 } }]);
    });
  });

  it('counts a vote read back after it ended and never announces it', async () => {
    await withStore(async (root) => {
      const store = root.forServer(SERVER);
      expect(await store.acceptVote(readBack(T, { announcedAt: T + 13 * HOUR }))).toBe(true);
      expect(await store.waitingVotes(10)).toEqual([]);
      expect(await store.votesBetween(T - HOUR, T + HOUR)).toEqual([{ userId: VOTER, votes: 1 }]);
    });
  });

  it("starts a read from the server's latest Top.gg vote before a time, of that server only", async () => {
    await withStore(async (root) => {
      expect(await root.latestListVote(SERVER, 'topgg', T + 100 * HOUR)).toBeUndefined();
      await root.forServer(SERVER).acceptVote(delivered(T, 'a'));
      await root.forServer(SERVER).acceptVote(delivered(T + 20 * HOUR, 'b'));
      await root.forServer(SERVER).acceptVote({ ...delivered(T + 30 * HOUR, 'c'), site: 'discordplace' });
      await root.forServer(OTHER_SERVER).acceptVote(delivered(T + 40 * HOUR, 'd'));
      expect(await root.latestListVote(SERVER, 'topgg', T + 100 * HOUR)).toBe(T + 20 * HOUR);
      expect(await root.latestListVote(SERVER, 'topgg', T + 20 * HOUR)).toBe(T);
    });
  });

  it('keeps what stops a server’s reads until it is cleared, and forgets it with the server', async () => {
    await withStore(async (root) => {
      const parked = { parked: { token: 'ab'.repeat(32), status: 401, at: T }, blockedUntil: T + HOUR };
      await root.saveTopggRecovery(SERVER, parked);
      await root.saveTopggRecovery(OTHER_SERVER, { blockedUntil: T + 2 * HOUR });
      expect(await root.topggRecovery(SERVER)).toEqual(parked);
      expect(await root.topggRecoveryStates()).toEqual(
        new Map<string, TopggRecoveryState>([
          [SERVER, parked],
          [OTHER_SERVER, { blockedUntil: T + 2 * HOUR }],
        ]),
      );
      await root.saveTopggRecovery(SERVER, undefined);
      expect(await root.topggRecovery(SERVER)).toBeUndefined();
      await root.forgetServer(OTHER_SERVER);
      expect(await root.topggRecoveryStates()).toEqual(new Map());
    });
  });
});
