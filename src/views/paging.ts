import { ButtonStyle } from 'discord-api-types/v10';
import { ActionRowBuilder, ButtonBuilder } from './components.js';
import type { Translator } from '../i18n/index.js';

// Lists shown 10 a page with Previous and Next (/votes, /leaderboard). Pages are 1-based
// everywhere: in the footer ("Page 2 of 5") and in the custom ids of the buttons.
const PAGE_SIZE = 10;
/** Keeps a page's lines well inside the 4,096-character description limit. */
const PAGE_SIZE_MAX = 25;
/** Far beyond any real list (100,000 entries); larger numbers in a custom id are forged. */
const PAGE_MAX = 10_000;

/** A page number from a custom id, or null when it is not a sane page. */
export function parsePage(arg: string): number | null {
  if (!/^[1-9]\d{0,4}$/.test(arg)) return null;
  const page = Number(arg);
  return page <= PAGE_MAX ? page : null;
}

export interface Page<T> {
  /** The page shown: the one asked for, clamped into range, so a stale button still shows something. */
  current: number;
  pageCount: number;
  /** Index of the page's first item in the whole list. */
  first: number;
  items: T[];
}

/** One page of an already ordered list. */
export function pageOf<T>(items: readonly T[], page: number, pageSize = PAGE_SIZE): Page<T> {
  const size = Number.isInteger(pageSize) ? Math.min(PAGE_SIZE_MAX, Math.max(1, pageSize)) : PAGE_SIZE;
  const pageCount = Math.max(1, Math.ceil(items.length / size));
  const current = Number.isInteger(page) ? Math.min(pageCount, Math.max(1, page)) : 1;
  const first = (current - 1) * size;
  return { current, pageCount, first, items: items.slice(first, first + size) };
}

/**
 * Previous and Next; `customIdFor(page)` names the page a button leads to. Targets are clamped into
 * range, so the two never share a custom id when there are two or more pages.
 */
export function pageButtons(
  { current, pageCount }: Pick<Page<unknown>, 'current' | 'pageCount'>,
  customIdFor: (page: number) => string,
  { t }: Translator,
): ActionRowBuilder<ButtonBuilder> {
  const previous = new ButtonBuilder()
    .setStyle(ButtonStyle.Secondary)
    .setLabel(t('votes.previous'))
    .setCustomId(customIdFor(Math.max(1, current - 1)))
    .setDisabled(current <= 1);
  const next = new ButtonBuilder()
    .setStyle(ButtonStyle.Secondary)
    .setLabel(t('votes.next'))
    .setCustomId(customIdFor(Math.min(pageCount, current + 1)))
    .setDisabled(current >= pageCount);
  return new ActionRowBuilder<ButtonBuilder>().addComponents(previous, next);
}
