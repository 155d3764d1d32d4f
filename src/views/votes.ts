import { ActionRowBuilder, ButtonBuilder, ButtonStyle, EmbedBuilder } from 'discord.js';
import type { VoteEntry, VoteList } from '../api/types.js';
import { Prefix, encodeCustomId } from '../custom-id.js';
import type { Translator } from '../i18n/index.js';
import { mention, relativeTime, safeText, timeAfter } from './format.js';
import { messageView, type MessageView } from './message.js';
import { ToneColour } from './theme.js';

/**
 * Pages are 1-based everywhere: in `votesView`, in the footer ("Page 2 of 5") and in the
 * custom id `votes-page:<N>`, where N is the page the button leads to.
 */
export const VOTES_PAGE_SIZE = 10;
/** Keeps a page's lines well inside the 4,096-character description limit. */
const PAGE_SIZE_MAX = 25;
/** Far beyond any real list (100,000 active votes); larger numbers in a custom id are forged. */
export const VOTES_PAGE_MAX = 10_000;

/** The page number in a `votes-page:<N>` custom id, or null when it is not a sane page. */
export function parseVotesPage(arg: string): number | null {
  if (!/^[1-9]\d{0,4}$/.test(arg)) return null;
  const page = Number(arg);
  return page <= VOTES_PAGE_MAX ? page : null;
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
}

/** Discord caps nicknames at 32 characters; anything longer is not a name Discord gave. */
const NAME_MAX = 32;

/** Soonest to run out first; votes with no known time left go last. Ties by user id, for stable pages. */
export function orderByTimeLeft(votes: readonly VoteEntry[]): VoteEntry[] {
  return [...votes].sort((a, b) => {
    const left = (a.remainingMs ?? Number.POSITIVE_INFINITY) - (b.remainingMs ?? Number.POSITIVE_INFINITY);
    if (left !== 0 && !Number.isNaN(left)) return left;
    return a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0;
  });
}

function voterLine(rank: number, vote: VoteEntry, now: Date, { t }: Translator, name?: string): string {
  const when =
    vote.remainingMs === null
      ? t('votes.line.unknown')
      : t('votes.line.runsOut', { when: relativeTime(timeAfter(now, Math.max(0, vote.remainingMs))) });
  // The dot is escaped so Discord does not turn the lines into its own renumbered list.
  const who = name === undefined ? mention(vote.userId) : `${mention(vote.userId)} (${safeText(name, NAME_MAX)})`;
  return `${rank}\\. ${who} · ${when}`;
}

function pageButtons(page: number, pageCount: number, { t }: Translator): ActionRowBuilder<ButtonBuilder> {
  // Targets are clamped into range, so Previous and Next never share a custom id when there
  // are two or more pages (page 1 of 2: 1 and 2; page 2 of 2: 1 and 2).
  const previous = new ButtonBuilder()
    .setStyle(ButtonStyle.Secondary)
    .setLabel(t('votes.previous'))
    .setCustomId(encodeCustomId(Prefix.votesPage, String(Math.max(1, page - 1))))
    .setDisabled(page <= 1);
  const next = new ButtonBuilder()
    .setStyle(ButtonStyle.Secondary)
    .setLabel(t('votes.next'))
    .setCustomId(encodeCustomId(Prefix.votesPage, String(Math.min(pageCount, page + 1))))
    .setDisabled(page >= pageCount);
  return new ActionRowBuilder<ButtonBuilder>().addComponents(previous, next);
}

/** One page of the list, with where it starts and how many pages there are; out-of-range pages are clamped. */
export function votesPage(list: VoteList, page: number, pageSize = VOTES_PAGE_SIZE) {
  const size = Number.isInteger(pageSize) ? Math.min(PAGE_SIZE_MAX, Math.max(1, pageSize)) : VOTES_PAGE_SIZE;
  const pageCount = Math.max(1, Math.ceil(list.votes.length / size));
  const current = Number.isInteger(page) ? Math.min(pageCount, Math.max(1, page)) : 1;
  const first = (current - 1) * size;
  return { current, pageCount, first, votes: orderByTimeLeft(list.votes).slice(first, first + size) };
}

/** The guild's totals and one page of active voters. */
export function votesView({ list, page, now, pageSize, i18n, names }: VotesViewInput): MessageView {
  const { t } = i18n;
  const { current, pageCount, first, votes } = votesPage(list, page, pageSize);

  const embed = new EmbedBuilder()
    .setColor(ToneColour.info)
    .setTitle(t('votes.title'))
    .addFields(
      { name: t('votes.field.allTime'), value: i18n.number(list.totalVotes), inline: true },
      { name: t('votes.field.month'), value: i18n.number(list.monthlyVotes), inline: true },
      { name: t('votes.field.active'), value: i18n.number(list.votes.length), inline: true },
    );

  if (list.votes.length === 0) {
    return messageView(embed.setDescription(t('votes.empty')));
  }

  const lines = votes.map((vote, index) => voterLine(first + index + 1, vote, now, i18n, names?.get(vote.userId)));
  embed
    .setDescription([t('votes.heading'), ...lines].join('\n'))
    .setFooter({ text: t('votes.page', { page: current, pages: pageCount }) });

  return messageView(embed, pageCount > 1 ? [pageButtons(current, pageCount, i18n)] : []);
}
