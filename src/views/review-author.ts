import { isSnowflake } from '../api/index.js';
import { mention, stars } from './format.js';

/** Anchored at the start of the description, which user text never reaches (it follows a blank line). */
const AUTHOR_LINE = /^\*\*[★☆]{5} [\d.]+\/5\*\* · by <@(\d{17,20})>(?:\n|$)/;

/** The first line of a review embed: rating and author. `reviewAuthorFromEmbeds` reads it back. */
export function authorLine(rating: number, authorId: string): string {
  return `**${stars(rating)}** · by ${mention(authorId)}`;
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
