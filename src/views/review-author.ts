import type { APIEmbed } from 'discord.js';

const AUTHOR = /· by <@(\d{17,20})>/;

/**
 * The author id of a review message built by reviewView, read back from its embed. The reply form
 * only carries the review id, and the author is needed to fetch the fresh review after a reply.
 */
export function reviewAuthorFromEmbeds(embeds: ReadonlyArray<{ description?: string | null } | APIEmbed>): string | null {
  for (const embed of embeds) {
    const match = embed.description ? AUTHOR.exec(embed.description) : null;
    if (match?.[1]) return match[1];
  }
  return null;
}
