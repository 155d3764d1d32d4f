import type { Interaction } from 'discord.js';
import type { BotContext } from '../runtime/context.js';
import { Prefix } from '../core/custom-id.js';
import { translatorFor } from '../i18n/index.js';
import { isSiteId, SITE_FACTS, type SiteId } from '../lists/index.js';
import { monthRange, type Month } from '../leaderboard/month.js';
import { rankVoters } from '../leaderboard/rank.js';
import { leaderboardView, parseLeaderboardPage, streakBoardView, type LeaderboardPage } from '../views/leaderboard.js';
import type { MessageView } from '../views/message.js';
import { pageOf } from '../views/paging.js';
import { pageButton } from './page-button.js';

/** A page button's target, its list (if any) one the bot knows. */
function parseTarget(arg: string): LeaderboardPage | null {
  const target = parseLeaderboardPage(arg);
  return target && 'site' in target && !isSiteId(target.site) ? null : target;
}

/** Previous/Next on /leaderboard: redraws the same month's ranking (of the same list) at another page. */
export const leaderboardPage = pageButton<LeaderboardPage>({
  prefix: Prefix.leaderboardPage,
  parse: parseTarget,
  draw: (interaction, target, ctx) =>
    'streak' in target
      ? streakBoardWithNames(interaction, target.page, ctx)
      : leaderboardWithNames(interaction, target.month, target.page, ctx, target.site as SiteId | undefined),
});

/** The streaks going now, ranked, with names beside the page's mentions. */
export async function streakBoardWithNames(
  interaction: Interaction,
  page: number,
  ctx: BotContext,
): Promise<MessageView> {
  const { streakGraceMs } = ctx.settings;
  const streaks = await ctx.streaks.alive(ctx.now().getTime());
  const ranked = rankVoters(streaks.map(({ userId, streak }) => ({ userId, votes: streak })));
  const names = await pageNames(interaction, ranked, page, ctx);
  const i18n = translatorFor(interaction.locale);
  return streakBoardView({ ranked, page, graceHours: streakGraceMs / 3_600_000, i18n, names });
}

/**
 * A month's ranking from the votes the bot recorded on every list (or on `site` only), with names
 * beside the page's mentions.
 */
export async function leaderboardWithNames(
  interaction: Interaction,
  month: Month,
  page: number,
  ctx: BotContext,
  site?: SiteId,
): Promise<MessageView> {
  const { from, to } = monthRange(month);
  const [counts, since] = await Promise.all([ctx.ledger.votesBetween(from, to, site), ctx.ledger.countingSince()]);
  const ranked = rankVoters(counts);
  const names = await pageNames(interaction, ranked, page, ctx);
  const i18n = translatorFor(interaction.locale);
  const list = site === undefined ? undefined : { id: site, name: SITE_FACTS[site].name };
  return leaderboardView({ month, ranked, page, countingSince: new Date(since), i18n, names, site: list });
}

/** The names of the members on the page shown, beside their mentions. */
function pageNames(interaction: Interaction, ranked: ReturnType<typeof rankVoters>, page: number, ctx: BotContext) {
  return ctx.names.resolve(
    interaction.guild,
    pageOf(ranked, page).items.map((entry) => entry.userId),
  );
}
