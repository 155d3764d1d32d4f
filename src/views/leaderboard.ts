import { EmbedBuilder } from './embed-builder.js';
import { Prefix, encodeCustomId } from '../core/custom-id.js';
import type { Translator } from '../i18n/index.js';
import { monthKey, parseMonth, type Month } from '../leaderboard/month.js';
import type { Ranked } from '../leaderboard/rank.js';
import { discordTime, mentionWithName } from '../core/discord-text.js';
import { messageView, type MessageView } from './message.js';
import { pageButtons, pageOf, parsePage } from './paging.js';
import { ToneColour } from './theme.js';

export interface LeaderboardViewInput {
  month: Month;
  /** Every ranked member of the month, from rankVoters. */
  ranked: readonly Ranked[];
  page: number;
  /** When the bot began recording votes; null before the first. */
  countingSince: Date | null;
  i18n: Translator;
  names?: ReadonlyMap<string, string>;
  /** The one list counted (its id for the page buttons, its name for the heading); every list when absent. */
  site?: { id: string; name: string };
}

/** Which ranking a page button redraws: a month's votes, or the streaks going now. */
export type LeaderboardPage = { month: Month; page: number; site?: string } | { streak: true; page: number };

/** The streak ranking's place in a custom id, where a month would be. */
const STREAK = 'streak';

/**
 * `leaderboard-page:<YYYY-MM>:<N>`, `leaderboard-page:<YYYY-MM>:<N>:<site id>` (one list's votes) or
 * `leaderboard-page:streak:<N>`: the ranking and the page a button leads to, or null when forged.
 * The site id is checked against the known lists by the button's handler.
 */
export function parseLeaderboardPage(arg: string): LeaderboardPage | null {
  const streak = new RegExp(`^${STREAK}:(\\d{1,5})$`).exec(arg);
  if (streak) {
    const page = parsePage(streak[1]!);
    return page ? { streak: true, page } : null;
  }
  const match = /^(\d{4}-\d{2}):(\d{1,5})(?::([a-z]{1,20}))?$/.exec(arg);
  const month = match ? parseMonth(match[1]!) : null;
  const page = match ? parsePage(match[2]!) : null;
  if (!month || !page) return null;
  return match![3] === undefined ? { month, page } : { month, page, site: match![3] };
}

function line({ rank, userId, votes }: Ranked, { t }: Translator, name?: string): string {
  const who = mentionWithName(userId, name);
  // The dot is escaped so Discord does not turn the lines into its own renumbered list.
  return `${rank}\\. ${who} · ${t('leaderboard.votes', { count: votes })}`;
}

/** A month's ranking, 10 a page, with since when the bot has been counting. */
export function leaderboardView({
  month,
  ranked,
  page,
  countingSince,
  i18n,
  names,
  site,
}: LeaderboardViewInput): MessageView {
  const { t } = i18n;
  const monthName = i18n.monthName(month.year, month.month);
  const since = countingSince
    ? t('leaderboard.since', { date: discordTime(countingSince, 'D') })
    : t('leaderboard.notYet');
  const embed = new EmbedBuilder().setColor(ToneColour.info).setTitle(t('leaderboard.title', { month: monthName }));
  if (ranked.length === 0) {
    const only = site ? `\n${t('leaderboard.siteOnly', { site: site.name })}` : '';
    return messageView(embed.setDescription(`${t('leaderboard.empty', { month: monthName })}${only}\n${since}`));
  }
  const shown = pageOf(ranked, page);
  const lines = shown.items.map((entry) => line(entry, i18n, names?.get(entry.userId)));
  embed
    .setDescription(
      [
        t('leaderboard.heading'),
        ...(site ? [t('leaderboard.siteOnly', { site: site.name })] : []),
        ...lines,
        '',
        since,
      ].join('\n'),
    )
    .setFooter({ text: t('votes.page', { page: shown.current, pages: shown.pageCount }) });
  const toPage = (target: number) =>
    encodeCustomId(Prefix.leaderboardPage, `${monthKey(month)}:${target}${site ? `:${site.id}` : ''}`);
  return messageView(embed, shown.pageCount > 1 ? [pageButtons(shown, toPage, i18n)] : []);
}

export interface StreakBoardInput {
  /** Members with a streak going, ranked by rankVoters (their streak as the count). */
  ranked: readonly Ranked[];
  page: number;
  /** The server's grace window, said in the heading so the ranking explains itself. */
  graceHours: number;
  i18n: Translator;
  names?: ReadonlyMap<string, string>;
}

/** The streaks going now, 10 a page: vote periods in a row, each voted within the grace after the last. */
export function streakBoardView({ ranked, page, graceHours, i18n, names }: StreakBoardInput): MessageView {
  const { t } = i18n;
  const embed = new EmbedBuilder().setColor(ToneColour.info).setTitle(t('leaderboard.streakTitle'));
  if (ranked.length === 0) return messageView(embed.setDescription(t('leaderboard.streakEmpty')));
  const shown = pageOf(ranked, page);
  const lines = shown.items.map(({ rank, userId, votes }) => {
    const who = mentionWithName(userId, names?.get(userId));
    return `${rank}\\. ${who} · ${t('leaderboard.streakLine', { count: votes })}`;
  });
  embed
    .setDescription([t('leaderboard.streakHeading', { hours: graceHours }), ...lines].join('\n'))
    .setFooter({ text: t('votes.page', { page: shown.current, pages: shown.pageCount }) });
  const toPage = (target: number) => encodeCustomId(Prefix.leaderboardPage, `${STREAK}:${target}`);
  return messageView(embed, shown.pageCount > 1 ? [pageButtons(shown, toPage, i18n)] : []);
}
