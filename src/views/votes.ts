import { EmbedBuilder } from './embed-builder.js';
import type { VoteEntry, VoteList } from '../api/types.js';
import { isOrderedByTimeLeft, orderByTimeLeft } from '../api/vote-order.js';
import { Prefix, encodeCustomId } from '../core/custom-id.js';
import type { Translator } from '../i18n/index.js';
import { relativeTime, timeAfter } from './format.js';
import { mentionWithName } from '../core/discord-text.js';
import { messageView, type MessageView } from './message.js';
import { pageButtons, pageOf, parsePage, type Page } from './paging.js';
import { ToneColour } from './theme.js';

/** The page number in a `votes-page:<N>` custom id, or null when it is not a sane page. */
export const parseVotesPage = parsePage;

/** Which page a /votes button leads to, and the one list it shows (if one was chosen). */
export interface VotesPage {
  page: number;
  site?: string;
}

/**
 * `votes-page:<N>` or `votes-page:<N>:<site id>`: the page, and the list, or null when it is not a
 * sane page. The site id is checked against the known lists by the button's handler.
 */
export function parseVotesTarget(arg: string): VotesPage | null {
  const match = /^([^:]*)(?::([a-z]{1,20}))?$/.exec(arg);
  const page = match ? parsePage(match[1]!) : null;
  if (!page) return null;
  return match![2] === undefined ? { page } : { page, site: match![2] };
}

/** What the month brought on a list other than Guilds, shown under Guilds' votes. */
export interface OtherListMonth {
  name: string;
  votes: number;
}

export interface VotesViewInput {
  list: VoteList;
  /** 1-based; out-of-range pages are clamped, so a stale button still shows something. */
  page: number;
  now: Date;
  pageSize?: number;
  i18n: Translator;
  /** Display names to show beside the mentions, by user id; a member without one shows the mention alone. */
  names?: ReadonlyMap<string, string>;
  /** The one list shown (its id for the page buttons, its name for the title); Guilds' votes when absent. */
  site?: { id: string; name: string };
  /** Other lists with votes this month: a line each (none for a server only on Guilds). */
  otherLists?: readonly OtherListMonth[];
  /** The server's counts over every list, under the other lists' lines: the figures announcements show. */
  allLists?: { allTime: number; thisMonth: number };
}

export { orderByTimeLeft };

function voterLine(rank: number, vote: VoteEntry, now: Date, { t }: Translator, name?: string): string {
  const when =
    vote.remainingMs === null
      ? t('votes.line.unknown')
      : t('votes.line.runsOut', { when: relativeTime(timeAfter(now, Math.max(0, vote.remainingMs))) });
  // The dot is escaped so Discord does not turn the lines into its own renumbered list.
  const who = mentionWithName(vote.userId, name);
  return `${rank}\\. ${who} · ${when}`;
}

/**
 * One page of the list, soonest to run out first. The client orders the list once per fetch, so
 * a page click costs one pass over it, not a sort.
 */
export function votesPage(list: VoteList, page: number, pageSize?: number): Page<VoteEntry> {
  const ordered = isOrderedByTimeLeft(list.votes) ? list.votes : orderByTimeLeft(list.votes);
  return pageOf(ordered, page, pageSize);
}

/** The guild's totals and one page of active voters. */
export function votesView({
  list,
  page,
  now,
  pageSize,
  i18n,
  names,
  site,
  otherLists = [],
  allLists,
}: VotesViewInput): MessageView {
  const { t } = i18n;
  const shown = votesPage(list, page, pageSize);
  const others = otherLists.map((other) => t('votes.otherList', { site: other.name, count: i18n.number(other.votes) }));
  if (allLists)
    others.push(t('votes.allLists', { total: i18n.number(allLists.allTime), month: i18n.number(allLists.thisMonth) }));

  const embed = new EmbedBuilder()
    .setColor(ToneColour.info)
    .setTitle(site ? t('votes.titleSite', { site: site.name }) : t('votes.title'))
    .addFields(
      { name: t('votes.field.allTime'), value: i18n.number(list.totalVotes), inline: true },
      { name: t('votes.field.month'), value: i18n.number(list.monthlyVotes), inline: true },
      { name: t('votes.field.active'), value: i18n.number(list.votes.length), inline: true },
    );

  if (list.votes.length === 0) {
    return messageView(embed.setDescription([t('votes.empty'), ...blankThen(others)].join('\n')));
  }

  const lines = shown.items.map((vote, index) =>
    voterLine(shown.first + index + 1, vote, now, i18n, names?.get(vote.userId)),
  );
  embed
    .setDescription([t('votes.heading'), ...lines, ...blankThen(others)].join('\n'))
    .setFooter({ text: t('votes.page', { page: shown.current, pages: shown.pageCount }) });

  const toPage = (target: number) => encodeCustomId(Prefix.votesPage, site ? `${target}:${site.id}` : String(target));
  return messageView(embed, shown.pageCount > 1 ? [pageButtons(shown, toPage, i18n)] : []);
}

/** Lines set off from what is above them by an empty one; nothing when there are none. */
const blankThen = (lines: readonly string[]): string[] => (lines.length > 0 ? ['', ...lines] : []);
