import type { Translator } from '../i18n/index.js';
import { isSiteId, SITE_FACTS } from '../lists/index.js';
import {
  GUILDS_SITE,
  type OutboxStore,
  type PendingAnnouncement,
  type ReviewFeedStore,
  type VoteLedger,
} from '../store/index.js';
import { voteCounts, type CountsStore } from '../store/vote-counts.js';
import { REVIEWS_PER_POST, reviewFeedBatchView, type OriginOf } from '../views/review-feed.js';
import {
  packTemplatedAnnouncement,
  packVoteAnnouncement,
  usesTemplates,
  VOTERS_PER_ANNOUNCEMENT,
  type AnnouncementTemplates,
  type VoteTotals,
} from '../views/vote-announcement.js';
import { messageBody, newNonce } from '../bot/poster.js';

/** Display names for mentions: whatever is known now; a post never waits long for them. */
export type NamesOf = (userIds: readonly string[]) => Promise<ReadonlyMap<string, string>>;

/** What a lane asks of a source: claim the next post for this channel, or say when to ask again. */
type Claim = { post: number } | { later: number } | undefined;

export interface PostSource {
  readonly kind: 'votes' | 'reviews';
  claim(channelId: string): Promise<Claim>;
}

export interface SourceOptions {
  store: Pick<OutboxStore, 'createPost'> &
    Pick<VoteLedger, 'waitingVotes'> &
    Pick<ReviewFeedStore, 'waitingReviews'> &
    CountsStore;
  now: () => number;
  /** The server's language: a feed post answers no member in particular. */
  i18n: () => Translator;
  names: NamesOf;
}

/**
 * Accepted votes, as many to a message as fit. The first vote of a burst waits `gatherMs` for
 * others to share its message; a full message goes at once.
 */
export function voteSource(
  options: SourceOptions & {
    gatherMs?: number;
    /** The server's wording; none set: the built-in embed with the server's totals. */
    templates?: AnnouncementTemplates;
    serverName?: () => string;
    /** The lists the server is on, Guilds included, when its every-list line is on; left out: no such line. */
    serverSites?: () => readonly string[];
  },
): PostSource {
  const { store, now, i18n, names, templates } = options;
  const gatherMs = options.gatherMs ?? 500;
  return {
    kind: 'votes',
    async claim(channelId) {
      const sites = options.serverSites?.() ?? [];
      const waiting = (await store.waitingVotes(VOTERS_PER_ANNOUNCEMENT)).map((vote) => announced(vote, sites));
      const oldest = waiting[0];
      if (oldest === undefined) return undefined;
      const at = now();
      if (waiting.length < VOTERS_PER_ANNOUNCEMENT && at - oldest.at < gatherMs) return { later: oldest.at + gatherMs };
      const known = await names(waiting.map((vote) => vote.userId));
      const { body, count } =
        templates && usesTemplates(templates)
          ? packTemplatedAnnouncement(waiting, templates, options.serverName?.() ?? '', i18n(), known)
          : builtIn(packVoteAnnouncement(waiting, await voteTotals(store, at), i18n(), known));
      const items = waiting.slice(0, count).map((vote) => vote.id);
      const post = await store.createPost({ channelId, kind: 'votes', body, nonce: newNonce(), createdAt: at }, items);
      return { post };
    },
  };
}

/**
 * A waiting vote as the announcement words it: the list it was cast on by name (the built-in line
 * leaves out Guilds'), and whether it completed the member's votes on every one of the server's lists
 * (at least two: on Guilds alone every vote would).
 */
function announced(vote: PendingAnnouncement, serverSites: readonly string[]) {
  const name = siteName(vote.site);
  const everyList = serverSites.length >= 2 && serverSites.every((site) => vote.sitesToday.includes(site));
  return {
    ...vote,
    ...(vote.site === GUILDS_SITE ? {} : { listName: name }),
    ...(everyList ? { everyList } : {}),
    siteName: name,
    listsToday: vote.sitesToday.length,
  };
}

/** A list's display name; a site id the bot no longer knows shows as stored. */
const siteName = (site: string): string => (isSiteId(site) ? SITE_FACTS[site].name : site);

const builtIn = ({ view, count }: ReturnType<typeof packVoteAnnouncement>) => ({ body: messageBody(view), count });

/** Reviews: one to a message, or as many as fit when several wait (each with its own Reply). */
export function reviewSource(options: SourceOptions & { originOf?: OriginOf }): PostSource {
  const { store, now, i18n, names, originOf } = options;
  return {
    kind: 'reviews',
    async claim(channelId) {
      const waiting = await store.waitingReviews(REVIEWS_PER_POST);
      if (waiting.length === 0) return undefined;
      const known = await names(waiting.map((review) => review.authorId));
      const { view, count } = reviewFeedBatchView(waiting, i18n(), known, originOf);
      const items = waiting.slice(0, count).map((review) => review.reviewId);
      const post = await store.createPost(
        { channelId, kind: 'reviews', body: messageBody(view), nonce: newNonce(), createdAt: now() },
        items,
      );
      return { post };
    },
  };
}

/** The totals an announcement shows: the server's counts, all lists together (store/vote-counts.ts). */
async function voteTotals(store: CountsStore, at: number): Promise<VoteTotals> {
  const counts = await voteCounts(store, at);
  return { total: counts.allTime, thisMonth: counts.thisMonth };
}
