import { MessageFlags, type ModalSubmitInteraction } from 'discord.js';
import type { Reply } from '../api/index.js';
import type { BotContext } from '../runtime/context.js';
import type { ModalHandler } from '../runtime/context.js';
import { discordPoster } from '../bot/poster.js';
import { replyInTime, updateInTime, type ReplyPayload } from '../bot/respond.js';
import { UserFacingError } from '../bot/user-error.js';
import { encodeCustomId, Prefix } from '../core/custom-id.js';
import { translatorFor } from '../i18n/index.js';
import { ReplyModalField } from '../views/reply-modal.js';
import { readReplyInput } from '../replies/reply-input.js';
import { replyPostedView } from '../views/reply-posted.js';
import { reviewAuthorInMessage } from '../views/review-author.js';
import { reviewView } from '../views/review.js';
import { inboxPageOf } from '../views/review-inbox.js';
import { markFeedAnswered, postReviewReply, type PostedReply } from '../replies/post-reply.js';
import { reviewReplyTarget } from './review-reply-target.js';
import { reviewInboxWithNames } from './reviews-page.js';
import { commandActor } from '../bot/actor.js';

interface ReplyForm {
  reviewId: string;
  content: string;
  pinned: boolean;
  /** The author of the review on the message the form came from, read back from its embed. */
  authorId: string | null;
  /** Their display name, if the bot knows it, to show beside the mention when the review is redrawn. */
  authorName: string | undefined;
}

/**
 * The reply form sent back, by a moderator (the router checks again, as a submit can be forged):
 * posted by the one reply path (claimed, posted once, audited, feed post marked answered), shown in
 * the message the form came from.
 */
export const reviewReplySubmit: ModalHandler<string> = {
  kind: 'modal',
  prefix: Prefix.reviewReplySubmit,
  ...reviewReplyTarget,
  async run(interaction, reviewId, ctx) {
    const form = readForm(interaction, reviewId, ctx);
    const inboxPage = interaction.isFromMessage() ? inboxPageOf(interaction.message) : null;
    await postReviewReply(ctx, form, commandActor(interaction), {
      poster: discordPoster(interaction.client.rest),
      serverLocale: interaction.guildLocale,
      show: (posted) =>
        inboxPage === null ? show(interaction, form, posted) : showInInbox(interaction, form, posted, inboxPage, ctx),
      feedMarkedByShow: inboxPage !== null,
    });
  },
};

function readForm(interaction: ModalSubmitInteraction, reviewId: string, ctx: BotContext): ReplyForm {
  const form = readReplyInput(readFields(interaction));
  if (!form.ok) throw new UserFacingError(form.problem, form.vars);
  const authorId = interaction.isFromMessage()
    ? reviewAuthorInMessage(interaction.message, reviewId, encodeCustomId(Prefix.reviewReply, reviewId))
    : null;
  const authorName = authorId === null ? undefined : ctx.names.get(authorId);
  return { reviewId, content: form.content, pinned: form.pinned, authorId, authorName };
}

const confirmationOf = (interaction: ModalSubmitInteraction, form: ReplyForm) => (reply: Reply) =>
  replyPostedView({
    reviewId: form.reviewId,
    replyId: reply.id,
    content: form.content,
    pinned: form.pinned,
    i18n: translatorFor(interaction.locale),
  });

/** Updates the review message in place (or answers, for a form not opened from one), then confirms. */
async function show(interaction: ModalSubmitInteraction, form: ReplyForm, posted: Promise<PostedReply>): Promise<void> {
  const i18n = translatorFor(interaction.locale);
  const confirmation = confirmationOf(interaction, form);
  if (!interaction.isFromMessage()) {
    await replyInTime(
      interaction,
      posted.then(({ reply }) => confirmation(reply)),
      { ephemeral: true },
    );
    return;
  }
  const { embeds, components } = interaction.message;
  // A feed post showing several reviews keeps them all; its redraw marks this one answered.
  const several = embeds.length > 1;
  await updateInTime(
    interaction,
    posted.then(({ fresh }): ReplyPayload =>
      fresh && form.authorId && !several
        ? reviewView({
            authorId: form.authorId,
            review: fresh,
            showReplyButton: true,
            i18n,
            authorName: form.authorName,
          })
        : { embeds, components },
    ),
  );
  const { reply } = await posted;
  await interaction.followUp({ ...confirmation(reply), flags: MessageFlags.Ephemeral });
}

/**
 * A reply sent from /reviews pending: the answer is recorded first, so the page drawn again no longer
 * lists the review; if that page cannot be read, the message stays as it was (the reply is posted).
 */
async function showInInbox(
  interaction: ModalSubmitInteraction,
  form: ReplyForm,
  posted: Promise<PostedReply>,
  page: number,
  ctx: BotContext,
): Promise<void> {
  if (!interaction.isFromMessage()) return show(interaction, form, posted);
  const { embeds, components } = interaction.message;
  await updateInTime(
    interaction,
    posted.then(async ({ reply }): Promise<ReplyPayload> => {
      await markFeedAnswered(form.reviewId, reply, interaction.user.id, ctx);
      return reviewInboxWithNames(interaction, page, ctx).catch((err: unknown) => {
        ctx.logger.warn({ err, reviewId: form.reviewId }, 'could not redraw the review inbox after a reply');
        return { embeds, components };
      });
    }),
  );
  const { reply } = await posted;
  await interaction.followUp({ ...confirmationOf(interaction, form)(reply), flags: MessageFlags.Ephemeral });
}

/**
 * The form's values, or "incomplete" for anything else: a forged or broken submit may leave a
 * value out or send a number, and discord.js passes such values through as they came.
 */
function readFields(interaction: ModalSubmitInteraction): { content: string; pinned: string[] | undefined } {
  let content: unknown;
  let pinned: unknown;
  try {
    content = interaction.fields.getTextInputValue(ReplyModalField.content);
    pinned = interaction.fields.fields.has(ReplyModalField.pinned)
      ? [...interaction.fields.getStringSelectValues(ReplyModalField.pinned)]
      : undefined;
  } catch {
    throw incompleteForm();
  }
  const pinnedOk = pinned === undefined || (Array.isArray(pinned) && pinned.every((v) => typeof v === 'string'));
  if (typeof content !== 'string' || !pinnedOk) throw incompleteForm();
  return { content, pinned: pinned as string[] | undefined };
}

function incompleteForm(): UserFacingError {
  return new UserFacingError('refusal.replyIncomplete');
}
