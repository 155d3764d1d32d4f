import { MessageFlags, type ModalSubmitInteraction } from 'discord.js';
import type { Review } from '../api/index.js';
import type { BotContext } from '../bot/context.js';
import type { ModalHandler } from '../bot/handlers.js';
import { postAuditMessage } from '../bot/post-audit-message.js';
import { replyInTime, tokenBudgetMs, updateInTime, type ReplyPayload } from '../bot/respond.js';
import { UserFacingError } from '../bot/user-error.js';
import { Prefix } from '../custom-id.js';
import { readReplyModal, ReplyModalField } from '../views/reply-modal.js';
import { replyAuditView } from '../views/reply-audit.js';
import { replyPostedView } from '../views/reply-posted.js';
import { reviewAuthorFromEmbeds } from '../views/review-author.js';
import { parseReviewId, reviewView } from '../views/review.js';
import { ReplyGuard } from './reply-guard.js';
import { requireModerator } from './require-moderator.js';

const guard = new ReplyGuard();

/** The reply form sent back: checked again (a submit can be forged), posted once, then shown. */
export const reviewReplySubmit: ModalHandler<string> = {
  kind: 'modal',
  prefix: Prefix.reviewReplySubmit,
  parse: parseReviewId,
  async run(interaction, reviewId, ctx) {
    const receivedAt = Date.now();
    requireModerator(interaction, ctx.config.moderatorRoleIds);
    const form = readReplyModal(readFields(interaction));
    if (!form.ok) throw new UserFacingError(form.problem, 'Reply not sent');

    const claim = guard.claim(reviewId, form.content);
    if (!claim.ok) {
      throw new UserFacingError(
        claim.state === 'pending'
          ? 'This reply is already being posted. Wait a moment and check the review.'
          : `This reply was already posted (reply id ${claim.replyId}); it was not sent again.`,
        'Already sent',
      );
    }

    const budgetMs = tokenBudgetMs(receivedAt);
    const authorId = interaction.isFromMessage() ? reviewAuthorFromEmbeds(interaction.message.embeds) : null;
    const posted = ctx.api.replyToReview(reviewId, { content: form.content, pinned: form.pinned }, { budgetMs }).then(
      async (reply) => {
        guard.posted(reviewId, form.content, reply.id);
        return { reply, fresh: authorId ? await freshReview(authorId, budgetMs, ctx) : undefined };
      },
      (error: unknown) => {
        guard.release(reviewId, form.content);
        throw error;
      },
    );

    const confirmation = (reply: { id: string }) =>
      replyPostedView({ reviewId, replyId: reply.id, content: form.content, pinned: form.pinned });
    if (interaction.isFromMessage()) {
      const message = interaction.message;
      await updateInTime(
        interaction,
        posted.then(({ fresh }): ReplyPayload =>
          fresh && authorId
            ? reviewView({ authorId, review: fresh, now: ctx.now(), showReplyButton: true })
            : { embeds: message.embeds, components: message.components },
        ),
      );
      const { reply } = await posted;
      await interaction.followUp({ ...confirmation(reply), flags: MessageFlags.Ephemeral });
    } else {
      await replyInTime(
        interaction,
        posted.then(({ reply }) => confirmation(reply)),
        { ephemeral: true },
      );
    }

    const { reply, fresh } = await posted;
    if (ctx.config.reviewLogChannelId) {
      const audit = replyAuditView({
        moderatorId: interaction.user.id,
        review: { id: reviewId, authorId: authorId ?? undefined, rating: fresh?.rating },
        reply: { id: reply.id, content: form.content, pinned: form.pinned },
        at: ctx.now(),
      });
      await postAuditMessage(interaction.client, ctx.config.reviewLogChannelId, audit, ctx.logger, {
        reviewId,
        replyId: reply.id,
      });
    }
  },
};

function readFields(interaction: ModalSubmitInteraction): { content: string; pinned: string[] | undefined } {
  try {
    const content = interaction.fields.getTextInputValue(ReplyModalField.content);
    const pinned = interaction.fields.fields.has(ReplyModalField.pinned)
      ? [...interaction.fields.getStringSelectValues(ReplyModalField.pinned)]
      : undefined;
    return { content, pinned };
  } catch {
    throw new UserFacingError(
      'The reply form came back incomplete. Press Reply on the review to open it again.',
      'Reply not sent',
    );
  }
}

/** The reply is already posted: a failed refresh only means the old count stays on screen. */
async function freshReview(authorId: string, budgetMs: number, ctx: BotContext): Promise<Review | undefined> {
  try {
    return (await ctx.api.getReview(authorId, { budgetMs })) ?? undefined;
  } catch (err) {
    ctx.logger.warn({ err, authorId }, 'could not refresh the review after a reply');
    return undefined;
  }
}
