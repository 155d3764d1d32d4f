import type { Interaction } from 'discord.js';
import type { VoteList } from '../api/types.js';
import { orderByTimeLeft } from '../api/vote-order.js';
import type { BotContext } from '../runtime/context.js';
import { Prefix } from '../core/custom-id.js';
import { translatorFor } from '../i18n/index.js';
import { monthOf, monthRange } from '../leaderboard/month.js';
import { isSiteId, SITE_FACTS, type SiteId } from '../lists/index.js';
import { GUILDS_SITE } from '../store/index.js';
import type { MessageView } from '../views/message.js';
import {
  parseVotesTarget,
  votesPage as pageOf,
  votesView,
  type OtherListMonth,
  type VotesPage,
} from '../views/votes.js';
import { pageButton } from './page-button.js';

const DAY_MS = 86_400_000;

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
 * Guilds' active votes and totals from the service's cached list, with a line for each other list
 * that brought votes this month; or, for one list other than Guilds, its running votes and totals
 * from the ledger.
 */
export async function votesPageWithNames(
  interaction: Interaction,
  page: number,
  ctx: BotContext,
  site?: SiteId,
): Promise<MessageView> {
  const now = ctx.now();
  const [list, otherLists] =
    site === undefined || site === GUILDS_SITE
      ? await Promise.all([ctx.api.listVotes(), site === undefined ? otherListsThisMonth(ctx, now) : []])
      : [await ledgerList(ctx, site, now.getTime()), []];
  const ids = pageOf(list, page).items.map((vote) => vote.userId);
  const names = await ctx.names.resolve(interaction.guild, ids);
  const shown = site === undefined ? undefined : { id: site, name: SITE_FACTS[site].name };
  const i18n = translatorFor(interaction.locale);
  return votesView({ list, page, now, i18n, names, site: shown, otherLists });
}

/**
 * The lists other than Guilds with votes this month (UTC), by the ledger: one read of per-day counts.
 * A store that does not answer costs only these lines: Guilds' list comes from the service.
 */
async function otherListsThisMonth(ctx: BotContext, now: Date): Promise<OtherListMonth[]> {
  const { from, to } = monthRange(monthOf(now));
  let perSite: Record<string, number[]>;
  try {
    perSite = await ctx.ledger.votesPerDayBySite(from, Math.round((to - from) / DAY_MS));
  } catch (err) {
    ctx.logger.debug({ err }, "could not count this month's votes on the other lists; /votes shows Guilds' alone");
    return [];
  }
  return Object.entries(perSite)
    .filter(([site]) => site !== GUILDS_SITE && isSiteId(site))
    .map(([site, days]) => ({ name: SITE_FACTS[site as SiteId].name, votes: days.reduce((sum, n) => sum + n, 0) }))
    .filter((other) => other.votes > 0);
}

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
