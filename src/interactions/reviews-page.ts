import type { Interaction } from 'discord.js';
import type { BotContext } from '../runtime/context.js';
import { Prefix } from '../core/custom-id.js';
import { translatorFor } from '../i18n/index.js';
import { LIST_REVIEW_ID_PREFIXES, LIST_REVIEW_PENDING_DAYS, listReviewOrigin } from '../lists/index.js';
import type { AgedReviews } from '../store/index.js';
import type { MessageView } from '../views/message.js';
import { INBOX_PAGE_SIZE, parseReviewsPage, reviewInboxView } from '../views/review-inbox.js';
import { pageButton } from './page-button.js';

/** Previous/Next on /reviews pending: the same list at another page, read again (replies take reviews off it). */
export const reviewsPage = pageButton({
  prefix: Prefix.reviewsPage,
  parse: parseReviewsPage,
  gate: 'moderator',
  draw: reviewInboxWithNames,
});

/**
 * A page of the reviews with no reply yet, oldest first, with their authors' names; a page past the
 * end shows the last. A list's review, which no one can answer here, leaves it after some days.
 */
export async function reviewInboxWithNames(
  interaction: Interaction,
  page: number,
  ctx: BotContext,
): Promise<MessageView> {
  const aged: AgedReviews = {
    idPrefixes: LIST_REVIEW_ID_PREFIXES,
    receivedBefore: ctx.now().getTime() - LIST_REVIEW_PENDING_DAYS * 86_400_000,
  };
  let shown = await ctx.inbox.unansweredReviews(INBOX_PAGE_SIZE, (page - 1) * INBOX_PAGE_SIZE, aged);
  const pageCount = Math.max(1, Math.ceil(shown.total / INBOX_PAGE_SIZE));
  const current = Math.min(page, pageCount);
  if (current !== page)
    shown = await ctx.inbox.unansweredReviews(INBOX_PAGE_SIZE, (current - 1) * INBOX_PAGE_SIZE, aged);
  const names = await ctx.names.resolve(
    interaction.guild,
    shown.reviews.map((review) => review.authorId),
  );
  const i18n = translatorFor(interaction.locale);
  const originOf = (reviewId: string) => listReviewOrigin(reviewId, interaction.guildId ?? '');
  return reviewInboxView({ reviews: shown.reviews, total: shown.total, current, pageCount, i18n, names, originOf });
}
