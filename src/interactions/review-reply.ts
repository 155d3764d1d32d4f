import type { ButtonHandler } from '../runtime/context.js';
import { Prefix } from '../core/custom-id.js';
import { translatorFor } from '../i18n/index.js';
import { replyModal } from '../views/reply-modal.js';
import { reviewReplyTarget } from './review-reply-target.js';

/** The Reply button on a review: opens the reply form for a moderator (no I/O first). */
export const reviewReply: ButtonHandler<string> = {
  kind: 'button',
  prefix: Prefix.reviewReply,
  ...reviewReplyTarget,
  async run(interaction, reviewId) {
    await interaction.showModal(replyModal({ reviewId, i18n: translatorFor(interaction.locale) }));
  },
};
