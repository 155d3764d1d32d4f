import type { Translator } from '../i18n/index.js';
import type { Logger } from '../log.js';
import type { Store } from '../store/index.js';
import { VOTERS_PER_ANNOUNCEMENT, voteAnnouncementView, type VoteTotals } from '../views/vote-announcement.js';
import { stableNonce, type ChannelPoster } from './channel-poster.js';
import { DrainLoop } from '../work/drain-loop.js';

export interface VoteAnnouncerOptions {
  store: Store;
  poster: ChannelPoster;
  /** VOTE_CHANNEL_ID; without it accepted votes are recorded and never announced. */
  channelId: string | undefined;
  logger: Logger;
  now: () => number;
  /** The server's language: an announcement answers no member in particular. */
  i18n: () => Translator;
  /** Display names of the voters, to stand beside their mentions; none is fine. */
  names?: (userIds: readonly string[]) => Promise<ReadonlyMap<string, string>>;
  /** How long the first vote of a burst waits for others to share its message. */
  gatherMs?: number;
  /** Discord allows 5 messages per 5 s in a channel: one message per 1.1 s stays under it. */
  spacingMs?: number;
  /** After a failed post, before the same batch is tried again. */
  retryMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Announces accepted votes from the store's queue, many voters per message. A vote leaves the
 * queue only once its message is posted, so a restart resumes where it stopped.
 */
export class VoteAnnouncer {
  readonly #loop = new DrainLoop(() => this.#drain());

  constructor(private readonly options: VoteAnnouncerOptions) {}

  /** Something was queued: announce it (with whatever else arrives in the gathering window). */
  wake(): void {
    this.#loop.wake();
  }

  async stop(): Promise<void> {
    await this.#loop.stop();
  }

  async #drain(): Promise<void> {
    const { store, poster, channelId, logger, now } = this.options;
    await sleep(this.options.gatherMs ?? 500);
    while (!this.#loop.stopped) {
      const batch = await store.pendingAnnouncements(VOTERS_PER_ANNOUNCEMENT);
      if (batch.length === 0) return;
      const ids = batch.map((vote) => vote.id);
      if (channelId === undefined) {
        await store.markAnnounced(ids, null, now());
        continue;
      }
      try {
        // A retry of the same batch after a crash reuses its message; a batch that grew makes a new one.
        const nonce = stableNonce('v', `${ids[0]}-${ids.at(-1)}`);
        const names = (await this.options.names?.(batch.map((vote) => vote.userId))) ?? new Map<string, string>();
        const view = voteAnnouncementView(batch, await this.#totals(), this.options.i18n(), names);
        const messageId = await poster.create(channelId, view, nonce);
        await store.markAnnounced(ids, messageId, now());
        logger.info({ voters: batch.length, messageId }, 'votes announced');
      } catch (err) {
        logger.warn({ err, voters: batch.length }, 'could not announce votes; trying again shortly');
        await sleep(this.options.retryMs ?? 5_000);
        continue;
      }
      await sleep(this.options.spacingMs ?? 1_100);
    }
  }

  async #totals(): Promise<VoteTotals> {
    const { store, now } = this.options;
    const at = now();
    const sum = (rows: Array<{ votes: number }>) => rows.reduce((total, row) => total + row.votes, 0);
    const month = new Date(at);
    const monthStart = Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), 1);
    const thisMonth = sum(await store.votesBetween(monthStart, at + 1));
    const polled = await store.mirrorTotals();
    const total = polled && polled.totalVotes + sum(await store.votesBetween(polled.polledAt + 1, at + 1));
    return { total, thisMonth };
  }
}
