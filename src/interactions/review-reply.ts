import type { ButtonHandler } from '../bot/handlers.js';
import { Prefix } from '../custom-id.js';
import { translatorFor } from '../i18n/index.js';
import { replyModal } from '../views/reply-modal.js';
import { parseReviewId } from '../views/review.js';
import { requireModerator } from './require-moderator.js';

/** The Reply button on a review: checks the clicker, then opens the reply form (no I/O first). */
export const reviewReply: ButtonHandler<string> = {
  kind: 'button',
  prefix: Prefix.reviewReply,
  parse: parseReviewId,
  async run(interaction, reviewId, ctx) {
    requireModerator(interaction, ctx.config.moderatorRoleIds);
    await interaction.showModal(replyModal({ reviewId, i18n: translatorFor(interaction.locale) }));
  },
};
