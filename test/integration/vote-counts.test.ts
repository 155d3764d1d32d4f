import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { voteSource } from '../../src/feeds/post-sources.js';
import { english } from '../../src/i18n/index.js';
import { openStore, type NewVote, type Store, type StoreRoot } from '../../src/store/index.js';
import { voteCounts, type ServiceFigures } from '../../src/store/vote-counts.js';
import { nextSnowflake } from '../../tools/discord-standin/index.js';
import { storeBackends } from '../support/store-backends.js';

// One rule for every count shown (issue 49 item 3), on a real store: Guilds' figure as polled plus
// the Guilds votes recorded after the poll, every other list's votes as recorded, the server's the
// sum; and no count goes down when a poll reads a figure that already holds votes counted on top.

const MINUTE = 60_000;
const T = Date.UTC(2026, 10, 20, 12);

const vote = (site: string, at: number, weight = 1): NewVote => ({
  userId: nextSnowflake(),
  at,
  double: weight > 1,
  source: 'webhook',
  periodEndsAt: at + 12 * 60 * MINUTE,
  site,
  weight,
  ...(site === 'guilds' ? {} : { siteEventId: `event-${at}-${site}` }),
});

/** A poll as the mirror stores it: the service's figures as read. */
async function poll(store: Store, read: ServiceFigures, at: number): Promise<void> {
  await store.savePoll({ entries: [], totals: { ...read, polledAt: at }, poll: { at, ok: true } });
}

/** The footer of the announcement the feed would post now. */
async function announcementFooter(store: Store, at: number, voted: NewVote): Promise<string> {
  expect(await store.acceptVote(voted)).toBe(true);
  let footer = '';
  const source = voteSource({
    store: {
      waitingVotes: store.waitingVotes.bind(store),
      waitingReviews: store.waitingReviews.bind(store),
      votesBySite: store.votesBySite.bind(store),
      mirrorTotals: store.mirrorTotals.bind(store),
      countMark: store.countMark.bind(store),
      setCountMark: store.setCountMark.bind(store),
      async createPost(post) {
        footer = (post.body as { embeds: Array<{ footer?: { text: string } }> }).embeds.at(-1)?.footer?.text ?? '';
        return 1;
      },
    },
    now: () => at,
    i18n: () => english,
    names: async () => new Map(),
    gatherMs: 0,
  });
  await source.claim('333333333333333333');
  return footer;
}

describe.each(storeBackends('bot-vote-counts-').map((backend) => [backend.name, backend] as const))(
  "a server's vote counts on %s",
  (_, backend) => {
    let root: StoreRoot;
    beforeAll(async () => {
      root = await openStore(await backend.fresh());
    });
    afterAll(async () => {
      await root?.close();
    });

    it("are Guilds' polled figure plus the Guilds votes recorded after the poll, and every other list's votes", async () => {
      const store = root.forServer(nextSnowflake());
      await poll(store, { totalVotes: 4_815, monthlyVotes: 300 }, T);
      await store.acceptVote(vote('guilds', T + MINUTE));
      await store.acceptVote(vote('topgg', T + 2 * MINUTE, 2));
      await store.acceptVote(vote('discordplace', T + 3 * MINUTE));
      expect(await voteCounts(store, T + 4 * MINUTE)).toEqual({
        lists: [
          { site: 'guilds', allTime: 4_816, thisMonth: 301 },
          { site: 'discordplace', allTime: 1, thisMonth: 1 },
          { site: 'topgg', allTime: 2, thisMonth: 2 },
        ],
        allTime: 4_819,
        thisMonth: 304,
      });
    });

    it('never go down when the next poll reads a figure that already holds the votes counted on top of the last', async () => {
      const store = root.forServer(nextSnowflake());
      await poll(store, { totalVotes: 4_815, monthlyVotes: 300 }, T);
      const shown: string[] = [];
      shown.push(await announcementFooter(store, T + MINUTE, vote('guilds', T + MINUTE)));
      shown.push(await announcementFooter(store, T + 2 * MINUTE, vote('topgg', T + 2 * MINUTE)));
      shown.push(await announcementFooter(store, T + 3 * MINUTE, vote('guilds', T + 3 * MINUTE)));
      // The service counted both Guilds votes; Top.gg's was never its to count.
      await poll(store, { totalVotes: 4_817, monthlyVotes: 302 }, T + 4 * MINUTE);
      shown.push(await announcementFooter(store, T + 5 * MINUTE, vote('guilds', T + 5 * MINUTE)));
      expect(shown).toEqual([
        'Total votes: 4,816 · This month: 301',
        'Total votes: 4,817 · This month: 302',
        'Total votes: 4,818 · This month: 303',
        'Total votes: 4,819 · This month: 304',
      ]);
    });

    it('are never shown lower than before when a poll reads a figure that has not caught up yet', async () => {
      const store = root.forServer(nextSnowflake());
      await poll(store, { totalVotes: 100, monthlyVotes: 10 }, T);
      await store.acceptVote(vote('guilds', T + MINUTE));
      await store.acceptVote(vote('guilds', T + 2 * MINUTE));
      const before = await voteCounts(store, T + 2 * MINUTE + 1);
      // The service has counted one of the two delivered votes so far, then both and one more.
      await poll(store, { totalVotes: 101, monthlyVotes: 11 }, T + 3 * MINUTE);
      const lagging = await voteCounts(store, T + 4 * MINUTE);
      await poll(store, { totalVotes: 103, monthlyVotes: 13 }, T + 5 * MINUTE);
      const caughtUp = await voteCounts(store, T + 6 * MINUTE);
      expect([before, lagging, caughtUp].map(({ allTime, thisMonth }) => [allTime, thisMonth])).toEqual([
        [102, 12],
        [102, 12],
        [103, 13],
      ]);
    });

    it("take a figure read from the service just now (the /votes list) when it is higher, and start each month from the service's", async () => {
      const store = root.forServer(nextSnowflake());
      await poll(store, { totalVotes: 100, monthlyVotes: 10 }, T);
      const { lists } = await voteCounts(store, T + MINUTE, { totalVotes: 103, monthlyVotes: 13 });
      expect(lists[0]).toEqual({ site: 'guilds', allTime: 103, thisMonth: 13 });
      const nextMonth = Date.UTC(2026, 11, 1, 0, 5);
      await poll(store, { totalVotes: 104, monthlyVotes: 0 }, nextMonth);
      await store.acceptVote(vote('guilds', nextMonth + MINUTE));
      const counts = await voteCounts(store, nextMonth + 2 * MINUTE);
      expect({ allTime: counts.allTime, thisMonth: counts.thisMonth }).toEqual({ allTime: 105, thisMonth: 1 });
    });

    it("leave the all-time figure unknown before Guilds' first poll, and count this month from the ledger", async () => {
      const store = root.forServer(nextSnowflake());
      await store.acceptVote(vote('guilds', T));
      await store.acceptVote(vote('topgg', T + MINUTE));
      const counts = await voteCounts(store, T + 2 * MINUTE);
      expect({ allTime: counts.allTime, thisMonth: counts.thisMonth }).toEqual({ allTime: undefined, thisMonth: 2 });
    });
  },
);
