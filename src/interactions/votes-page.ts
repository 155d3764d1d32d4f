import type { Interaction } from 'discord.js';
import type { VoteList } from '../api/types.js';
import { orderByTimeLeft } from '../api/vote-order.js';
import type { BotContext } from '../runtime/context.js';
import { Prefix } from '../core/custom-id.js';
import { translatorFor } from '../i18n/index.js';
import { monthOf, monthRange } from '../leaderboard/month.js';
import { isSiteId, SITE_FACTS, type SiteId } from '../lists/index.js';
import { GUILDS_SITE } from '../store/index.js';
import { voteCounts, type VoteCounts } from '../store/vote-counts.js';
import type { MessageView } from '../views/message.js';
import {
  parseVotesTarget,
  votesPage as pageOf,
  votesView,
  type OtherListMonth,
  type VotesPage,
} from '../views/votes.js';
import { pageButton } from './page-button.js';

/** A page button's target, its list (if any) one the bot knows. */
function parseTarget(arg: string): VotesPage | null {
  const target = parseVotesTarget(arg);
  return target && 'site' in target && !isSiteId(target.site) ? null : target;
}

/** Previous/Next on the /votes list: redraws the same message (of the same list) at another page. */
export const votesPage = pageButton({
  prefix: Prefix.votesPage,
  parse: parseTarget,
  draw: (interaction, target, ctx) => votesPageWithNames(interaction, target.page, ctx, target.site as SiteId),
});

/**
 * A page of /votes with the names of its members beside their mentions (/votes and its buttons):
 * Guilds' active votes from the service's cached list, its counts and a line for each other list
 * that brought votes this month, all by the one counting rule (store/vote-counts.ts), and the
 * server's counts when there are other lists; or, for one list other than Guilds, its running votes
 * and counts from the ledger.
 */
export async function votesPageWithNames(
  interaction: Interaction,
  page: number,
  ctx: BotContext,
  site?: SiteId,
): Promise<MessageView> {
  const now = ctx.now();
  const i18n = translatorFor(interaction.locale);
  const shown = site === undefined ? undefined : { id: site, name: SITE_FACTS[site].name };
  const { list, otherLists, allLists } =
    site !== undefined && site !== GUILDS_SITE
      ? { list: await ledgerList(ctx, site, now.getTime()), otherLists: [], allLists: undefined }
      : await guildsPage(ctx, now.getTime(), site === undefined);
  const names = await ctx.names.resolve(
    interaction.guild,
    pageOf(list, page).items.map((vote) => vote.userId),
  );
  return votesView({ list, page, now, i18n, names, site: shown, otherLists, allLists });
}

/** Guilds' list with its counts by the rule; with `everyList`, a line per other list and the server's counts. */
async function guildsPage(ctx: BotContext, at: number, everyList: boolean) {
  const read = await ctx.api.listVotes();
  const counts = await countsOrNone(ctx, at, read);
  const guilds = counts?.lists[0];
  const list: VoteList = guilds
    ? { ...read, totalVotes: guilds.allTime ?? read.totalVotes, monthlyVotes: guilds.thisMonth }
    : read;
  const otherLists = everyList ? otherListsOf(counts) : [];
  const allLists =
    otherLists.length > 0 && counts?.allTime !== undefined
      ? { allTime: counts.allTime, thisMonth: counts.thisMonth }
      : undefined;
  return { list, otherLists, allLists };
}

/** The counts, or none when the store does not answer: then Guilds' figures as the service gave them, and no other lists. */
async function countsOrNone(ctx: BotContext, at: number, read: VoteList): Promise<VoteCounts | undefined> {
  try {
    return await voteCounts(ctx.ledger, at, read);
  } catch (err) {
    ctx.logger.debug(
      { err },
      "could not count the server's votes; /votes shows Guilds' figures as the service gave them",
    );
    return undefined;
  }
}

/** The lists other than Guilds with votes this month, for a line each. */
const otherListsOf = (counts: VoteCounts | undefined): OtherListMonth[] =>
  (counts?.lists ?? [])
    .filter((list) => list.site !== GUILDS_SITE && isSiteId(list.site) && list.thisMonth > 0)
    .map((list) => ({ name: SITE_FACTS[list.site as SiteId].name, votes: list.thisMonth }));

/** One list's running votes and its totals, as the ledger has them, in the shape of Guilds' list. */
async function ledgerList(ctx: BotContext, site: SiteId, at: number): Promise<VoteList> {
  const { from, to } = monthRange(monthOf(new Date(at)));
  const [running, month, ever] = await Promise.all([
    ctx.ledger.runningVotes(at, site),
    ctx.ledger.votesBetween(from, to, site),
    ctx.ledger.votesBetween(0, Number.MAX_SAFE_INTEGER, site),
  ]);
  const sum = (counts: ReadonlyArray<{ votes: number }>) => counts.reduce((total, { votes }) => total + votes, 0);
  return {
    totalVotes: sum(ever),
    monthlyVotes: sum(month),
    votes: orderByTimeLeft(
      [...running].map(([userId, endsAt]) => ({ userId, remainingMs: endsAt - at, viaDiscord: false })),
    ),
  };
}
