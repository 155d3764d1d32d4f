import { afterEach, describe, expect, it } from '@jest/globals';
import { RedrawSweep } from '../../src/feeds/redraw-sweep.js';
import { openStore, type StoreRoot } from '../../src/store/index.js';
import { capturedLog } from '../support/captured-log.js';
import { storeBackends } from '../support/store-backends.js';

const SERVER = '111111111111111111';
const OTHER = '222222222222222222';
const CHANNEL = '900000000000000001';

const roots: StoreRoot[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => root.close()));
});

/** A review posted in the server's feed channel as message `messageId`. */
async function postedReview(root: StoreRoot, guildId: string, reviewId: string, messageId: string): Promise<void> {
  const store = root.forServer(guildId);
  await store.queueReview({ reviewId, authorId: '593031275438718986', rating: 4, content: 'Good', receivedAt: 1 });
  const postId = await store.createPost(
    { channelId: CHANNEL, kind: 'reviews', body: {}, nonce: reviewId, createdAt: 2 },
    [reviewId],
  );
  await store.postSent(postId, messageId, 3);
}

describe.each(storeBackends('redraw-sweep-'))('the sweep for feed redraws another process left ($name)', (backend) => {
  it("wakes the lane of a server it runs when an answer was recorded elsewhere, and no other server's", async () => {
    const root = await openStore(await backend.fresh());
    roots.push(root);
    await postedReview(root, SERVER, 'rev_here', '800000000000000001');
    await postedReview(root, OTHER, 'rev_elsewhere', '800000000000000002');
    const woken: string[] = [];
    const lanes = { wakeChannel: (channelId: string) => void woken.push(`${SERVER}/${channelId}`) };
    const sweep = new RedrawSweep({ store: root, logger: capturedLog().logger });
    sweep.join(SERVER, lanes);

    await sweep.sweep();
    expect(woken).toEqual([]);
    // As `npm run interactions` records a reply: the answer stored, the post due a redraw.
    expect(await root.forServer(SERVER).recordAnswer('rev_here', { replyId: 'r1', moderatorId: '1', at: 4 })).toBe(
      CHANNEL,
    );
    expect(await root.forServer(OTHER).recordAnswer('rev_elsewhere', { replyId: 'r2', moderatorId: '1', at: 4 })).toBe(
      CHANNEL,
    );
    await sweep.sweep();
    expect(woken).toEqual([`${SERVER}/${CHANNEL}`]);

    sweep.leave(SERVER, lanes);
    await sweep.sweep();
    expect(woken).toHaveLength(1);
  });
});

describe('the sweep for feed redraws, when the store fails', () => {
  it('says so once per outage and once when it reads again', async () => {
    const root = await openStore({ kind: 'sqlite', file: ':memory:' });
    roots.push(root);
    let failing = true;
    // The real store, made to fail as a stalled database would.
    const store = {
      dueRedrawsAll: async () => {
        if (failing) throw new Error('database is locked');
        return root.dueRedrawsAll();
      },
    };
    const { logger, lines } = capturedLog();
    const sweep = new RedrawSweep({ store, logger });
    sweep.join(SERVER, { wakeChannel: () => undefined });
    for (let i = 0; i < 3; i++) await sweep.sweep();
    failing = false;
    await sweep.sweep();
    await sweep.sweep();
    expect(lines.map((line) => line.msg)).toEqual([
      'could not read the feed redraws due; trying again',
      'feed redraws are read again',
    ]);
  });
});
