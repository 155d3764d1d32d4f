import { inlineCode, MessageFlags, type ModalSubmitInteraction } from 'discord.js';
import type { Reply, Review } from '../api/index.js';
import type { BotContext } from '../runtime/context.js';
import type { ModalHandler } from '../runtime/context.js';
import { discordPoster, messageBody } from '../bot/poster.js';
import { replyInTime, updateInTime, type ReplyPayload } from '../bot/respond.js';
import { tellAuditChannel } from '../bot/tell-audit-channel.js';
import { UserFacingError } from '../bot/user-error.js';
import { encodeCustomId, Prefix } from '../core/custom-id.js';
import { translatorFor } from '../i18n/index.js';
import { isIdLike } from '../views/format.js';
import { readReplyModal, ReplyModalField } from '../views/reply-modal.js';
import { replyAuditView } from '../views/reply-audit.js';
import { replyPostedView } from '../views/reply-posted.js';
import { reviewAuthorInMessage } from '../views/review-author.js';
import { reviewView } from '../views/review.js';
import { inboxPageOf } from '../views/review-inbox.js';
import { reviewReplyTarget } from './review-reply-target.js';
import { reviewInboxWithNames } from './reviews-page.js';

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
 * claimed, posted once, shown, audited, and the review's feed post marked answered.
 */
export const reviewReplySubmit: ModalHandler<string> = {
  kind: 'modal',
  prefix: Prefix.reviewReplySubmit,
  ...reviewReplyTarget,
  async run(interaction, reviewId, ctx) {
    const form = readForm(interaction, reviewId, ctx);
    claim(form, ctx);
    const posted = postOnce(form, ctx);
    const inboxPage = interaction.isFromMessage() ? inboxPageOf(interaction.message) : null;
    const reply =
      inboxPage === null
        ? await show(interaction, form, posted)
        : await showInInbox(interaction, form, posted, inboxPage, ctx);
    await audit(interaction, form, reply, await posted, ctx);
    if (inboxPage === null) await markFeedAnswered(form, reply, interaction.user.id, ctx);
  },
};

function readForm(interaction: ModalSubmitInteraction, reviewId: string, ctx: BotContext): ReplyForm {
  const form = readReplyModal(readFields(interaction));
  if (!form.ok) throw new UserFacingError(form.problem, form.vars);
  const authorId = interaction.isFromMessage()
    ? reviewAuthorInMessage(interaction.message, reviewId, encodeCustomId(Prefix.reviewReply, reviewId))
    : null;
  const authorName = authorId === null ? undefined : ctx.names.get(authorId);
  return { reviewId, content: form.content, pinned: form.pinned, authorId, authorName };
}

function claim({ reviewId, content }: ReplyForm, ctx: BotContext): void {
  const claimed = ctx.replyGuard.claim(reviewId, content);
  if (claimed.ok) return;
  if (claimed.state === 'pending') throw new UserFacingError('refusal.replyPending');
  // The id came from the service: quoted only when it looks like one.
  throw new UserFacingError('refusal.replyPosted', {
    replyId: isIdLike(claimed.replyId) ? inlineCode(claimed.replyId) : '—',
  });
}

interface Posted {
  reply: Reply;
  /** The review as it stands after the reply, when the message shows one and it could be read. */
  fresh: Review | undefined;
}

/** Posts the claimed reply; the service client never sends it twice, and the guard keeps the outcome. */
function postOnce(form: ReplyForm, ctx: BotContext): Promise<Posted> {
  const { reviewId, content, pinned, authorId } = form;
  return ctx.api.replyToReview(reviewId, { content, pinned }).then(
    async (reply) => {
      ctx.replyGuard.posted(reviewId, content, reply.id);
      return { reply, fresh: authorId ? await freshReview(authorId, ctx) : undefined };
    },
    (error: unknown) => {
      ctx.replyGuard.release(reviewId, content);
      throw error;
    },
  );
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
async function show(interaction: ModalSubmitInteraction, form: ReplyForm, posted: Promise<Posted>): Promise<Reply> {
  const i18n = translatorFor(interaction.locale);
  const confirmation = confirmationOf(interaction, form);
  if (!interaction.isFromMessage()) {
    await replyInTime(
      interaction,
      posted.then(({ reply }) => confirmation(reply)),
      { ephemeral: true },
    );
    return (await posted).reply;
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
  return reply;
}

/**
 * A reply sent from /reviews pending: the answer is recorded first, so the page drawn again no longer
 * lists the review; if that page cannot be read, the message stays as it was (the reply is posted).
 */
async function showInInbox(
  interaction: ModalSubmitInteraction,
  form: ReplyForm,
  posted: Promise<Posted>,
  page: number,
  ctx: BotContext,
): Promise<Reply> {
  if (!interaction.isFromMessage()) return show(interaction, form, posted);
  const { embeds, components } = interaction.message;
  await updateInTime(
    interaction,
    posted.then(async ({ reply }): Promise<ReplyPayload> => {
      await markFeedAnswered(form, reply, interaction.user.id, ctx);
      return reviewInboxWithNames(interaction, page, ctx).catch((err: unknown) => {
        ctx.logger.warn({ err, reviewId: form.reviewId }, 'could not redraw the review inbox after a reply');
        return { embeds, components };
      });
    }),
  );
  const { reply } = await posted;
  await interaction.followUp({ ...confirmationOf(interaction, form)(reply), flags: MessageFlags.Ephemeral });
  return reply;
}

/**
 * Posts the reply's audit message. A failure here must not undo or hide a reply that was posted, so it
 * is logged as an error (with the reply id, to reconcile by hand) and swallowed.
 */
async function audit(
  interaction: ModalSubmitInteraction,
  form: ReplyForm,
  reply: Reply,
  { fresh }: Posted,
  ctx: BotContext,
): Promise<void> {
  const channelId = ctx.settings.auditChannelId;
  if (!channelId) return;
  const view = replyAuditView({
    moderatorId: interaction.user.id,
    review: { id: form.reviewId, authorId: form.authorId ?? undefined, rating: fresh?.rating },
    reply: { id: reply.id, content: form.content, pinned: form.pinned },
    at: ctx.now(),
    i18n: translatorFor(interaction.guildLocale),
  });
  await tellAuditChannel(discordPoster(interaction.client.rest), {
    channelId,
    body: messageBody(view),
    logger: ctx.logger,
    failedLine: 'could not post the reply audit message',
    level: 'error',
    context: { reviewId: form.reviewId, replyId: reply.id },
  });
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

/** The reply is already posted: a failed refresh only means the old count stays on screen. */
async function freshReview(authorId: string, ctx: BotContext): Promise<Review | undefined> {
  try {
    return (await ctx.api.getReview(authorId)) ?? undefined;
  } catch (err) {
    ctx.logger.warn({ err, authorId }, 'could not refresh the review after a reply');
    return undefined;
  }
}

/** The review's feed post (if it has one) shows it was answered; a failure there is only logged. */
async function markFeedAnswered({ reviewId }: ReplyForm, reply: Reply, moderatorId: string, ctx: BotContext) {
  try {
    await ctx.feed?.onAnswered(reviewId, { replyId: reply.id, moderatorId, at: ctx.now().getTime() });
  } catch (err) {
    ctx.logger.warn({ err, reviewId, replyId: reply.id }, 'could not mark the feed post answered');
  }
}
