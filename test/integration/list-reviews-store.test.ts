import { describe, expect, it } from '@jest/globals';
import { LIST_REVIEW_ID_PREFIXES } from '../../src/lists/index.js';
import { openStore } from '../../src/store/index.js';
import { migrate, MIGRATIONS } from '../../src/store/migrations.js';
import { openPostgres } from '../../src/store/postgres.js';
import { openSqlite } from '../../src/store/sqlite.js';
import { storeBackends } from '../support/store-backends.js';

// List reviews (issue 34): one without a rating keeps none (migration 13 turns the 0 stored before
// into none), is left out of the rating counts, and a list's review leaves /reviews pending once aged.

const DAY = 86_400_000;
const SERVER = '111111111111111111';
const ALICE = '284102390141648897';
const BOB = '593031275438718986';

const backends = storeBackends('bot-list-reviews-');

describe.each(backends)('list reviews on $name', (backend) => {
  it('migrates a list review stored as 0 to no rating, keeps Guilds ratings, and counts only rated reviews', async () => {
    const target = await backend.fresh();
    const db = target.kind === 'postgres' ? openPostgres(target.url) : openSqlite(target.file);
    await migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= 12),
    );
    const insert = `INSERT INTO feed_posts (guild_id, review_id, author_id, rating, content, received_at, message_id)
      VALUES ($1, $2, $3, $4, 'text', $5, $6)`;
    await db.query(insert, [SERVER, 'discordlistspace:r-1', ALICE, 0, 1_000, 'm-1']);
    await db.query(insert, [SERVER, 'rev_guilds', BOB, 4, 2_000, 'm-2']);
    await db.close();
    const root = await openStore(target);
    try {
      const store = root.forServer(SERVER);
      expect((await store.feedPost('discordlistspace:r-1'))?.rating).toBeNull();
      expect((await store.feedPost('rev_guilds'))?.rating).toBe(4);
      // The migration kept the row's place in the feed: its message, and its index use.
      expect((await store.feedPost('discordlistspace:r-1'))?.messageId).toBe('m-1');
      expect(
        await store.queueReview({
          reviewId: 'discordlistspace:r-2',
          authorId: BOB,
          rating: null,
          content: '',
          receivedAt: 3_000,
        }),
      ).toBe(true);
      expect((await store.feedPost('discordlistspace:r-2'))?.rating).toBeNull();
      expect(await store.ratingCounts()).toEqual([{ rating: 4, reviews: 1 }]);
    } finally {
      await root.close();
    }
  });

  it("leaves a list's review out of the pending ones once it is older than the cut-off, never a Guilds one", async () => {
    const root = await openStore(await backend.fresh());
    try {
      const store = root.forServer(SERVER);
      const now = 30 * DAY;
      const review = (reviewId: string, receivedAt: number) =>
        store.queueReview({ reviewId, authorId: ALICE, rating: 5, content: 'x', receivedAt });
      await review('rev_old', now - 20 * DAY);
      await review('discordlistspace:old', now - 8 * DAY);
      await review('discordlistspace:new', now - 6 * DAY);
      const aged = { idPrefixes: LIST_REVIEW_ID_PREFIXES, receivedBefore: now - 7 * DAY };
      const pending = await store.unansweredReviews(1, 0, aged);
      expect(pending.total).toBe(2);
      expect(pending.reviews.map((r) => r.reviewId)).toEqual(['rev_old']);
      expect((await store.unansweredReviews(5, 1, aged)).reviews.map((r) => r.reviewId)).toEqual([
        'discordlistspace:new',
      ]);
      // Without the cut-off every unanswered review is there, as before.
      expect((await store.unansweredReviews(5, 0)).total).toBe(3);
    } finally {
      await root.close();
    }
  });
});
