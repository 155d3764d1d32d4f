import { isSnowflake } from '../api/index.js';
import type { Translator } from '../i18n/index.js';
import { stars } from './format.js';
import { mentionWithName } from '../core/discord-text.js';

/**
 * Anchored at the start of the description, which user text never reaches (it follows a blank
 * line). The word before the mention is "by" in the language the message was written in; the
 * author's display name may follow the mention in brackets.
 */
const AUTHOR_LINE = /^(?:\*\*[★☆]{5} [\d.]+\/5\*\* · )?[^\s<*]{1,12} <@(\d{17,20})>(?: \([^\n]*\))?(?:\n|$)/u;

/**
 * The first line of a review embed: rating and author (no stars for a review that gave no rating:
 * 0 of 5 would be a verdict the member never gave). `reviewAuthorFromEmbeds` reads it back.
 */
export function authorLine(rating: number | null, authorId: string, { t }: Translator, name?: string): string {
  const by = `${t('review.by')} ${mentionWithName(authorId, name)}`;
  return rating === null ? by : `**${stars(rating)}** · ${by}`;
}

/**
 * The author of the review shown in a message the bot sent with `reviewView`, or null when the
 * message shows no review. Lets the reply handler refresh that review without another lookup key.
 */
export function reviewAuthorFromEmbeds(embeds: ReadonlyArray<{ readonly description?: string | null }>): string | null {
  const match = AUTHOR_LINE.exec(embeds[0]?.description ?? '');
  const id = match?.[1];
  return isSnowflake(id) ? id : null;
}

interface ShownMessage {
  readonly embeds: ReadonlyArray<{ readonly description?: string | null; readonly author?: { name: string } | null }>;
  readonly components: ReadonlyArray<unknown>;
}

/**
 * The author of one review in a message that may show several (a feed post of reviews that
 * waited together): the review's Reply button ends in the number its embed carries.
 */
export function reviewAuthorInMessage(message: ShownMessage, reviewId: string, customId: string): string | null {
  if (message.embeds.length <= 1) return reviewAuthorFromEmbeds(message.embeds);
  const button = buttonsOf(message.components).find((b) => b.customId === customId || b.custom_id === customId);
  const number = / (#\d+)$/.exec(button?.label ?? '')?.[1];
  const embed = number === undefined ? undefined : message.embeds.find((e) => e.author?.name === number);
  return embed ? reviewAuthorFromEmbeds([embed]) : null;
}

interface ButtonLike {
  customId?: string;
  custom_id?: string;
  label?: string | null;
}

function buttonsOf(rows: ReadonlyArray<unknown>): ButtonLike[] {
  return rows.flatMap((row) => ((row as { components?: ButtonLike[] }).components ?? []) as ButtonLike[]);
}
