import { inlineCode } from 'discord.js';
import { ReviewNotFoundError, type Reply, type Review } from '../api/index.js';
import type { BotContext } from '../runtime/context.js';
import { messageBody, type Poster } from '../bot/poster.js';
import { tellAuditChannel } from '../bot/tell-audit-channel.js';
import { UserFacingError } from '../bot/user-error.js';
import { translatorFor } from '../i18n/index.js';
import { isIdLike } from '../views/format.js';
import { replyAuditView } from '../views/reply-audit.js';
import { readReplyInput } from './reply-input.js';
import type { Actor } from '../bot/actor.js';

/** What posting a reply needs of the server's context: narrow, so the dashboard can give it as the bot does. */
export type ReplyContext = Pick<BotContext, 'api' | 'replyGuard' | 'settings' | 'logger' | 'now' | 'feed'>;

/** A reply to one review, from the Reply button's form or the dashboard's inbox. */
export interface ReplyRequest {
  reviewId: string;
  /** As typed: checked here (trimmed, its length) as the form checks it, whoever sends it. */
  content: string;
  pinned: boolean;
  /** The review's author when known: the review is read again after the reply, to redraw it. */
  authorId: string | null;
}

export interface PostedReply {
  reply: Reply;
  /** The review as it stands after the reply, when its author is known and it could be read. */
  fresh: Review | undefined;
}

/** How the caller shows the reply and where the audit message goes. */
export interface ReplyWay {
  /** Posts to the audit channel (discord.js's REST, through the poster). */
  poster: Poster;
  /** The server's language: the audit channel is read by its moderators, not one member. */
  serverLocale: string | null;
  /** Draws the reply where it was asked for while it is being posted; the modal updates its message. */
  show?: (posted: Promise<PostedReply>) => Promise<void>;
  /** The inbox's redraw marks the feed post answered itself, before drawing the page again. */
  feedMarkedByShow?: boolean;
}

/**
 * The one path a reply takes, whoever sends it: checked, claimed (one form sent twice posts once),
 * posted through the server's service client, shown, audited with the member, and the review's feed
 * post marked answered.
 */
export async function postReviewReply(
  ctx: ReplyContext,
  request: ReplyRequest,
  actor: Actor,
  way: ReplyWay,
): Promise<PostedReply> {
  const checked = readReplyInput({ content: request.content, pinned: undefined });
  if (!checked.ok) throw new UserFacingError(checked.problem, checked.vars);
  const form = { ...request, content: checked.content };
  claim(form, ctx);
  const posted = postOnce(form, ctx);
  if (way.show) await way.show(posted);
  const done = await posted;
  await audit(form, done, actor, way, ctx);
  if (!way.feedMarkedByShow) await markFeedAnswered(form.reviewId, done.reply, actor.userId, ctx);
  return done;
}

function claim({ reviewId, content }: ReplyRequest, ctx: ReplyContext): void {
  const claimed = ctx.replyGuard.claim(reviewId, content);
  if (claimed.ok) return;
  if (claimed.state === 'pending') throw new UserFacingError('refusal.replyPending');
  // The id came from the service: quoted only when it looks like one.
  throw new UserFacingError('refusal.replyPosted', {
    replyId: isIdLike(claimed.replyId) ? inlineCode(claimed.replyId) : '—',
  });
}

/** Posts the claimed reply; the service client never sends it twice, and the guard keeps the outcome. */
function postOnce(form: ReplyRequest, ctx: ReplyContext): Promise<PostedReply> {
  const { reviewId, content, pinned, authorId } = form;
  return ctx.api.replyToReview(reviewId, { content, pinned }).then(
    async (reply) => {
      ctx.replyGuard.posted(reviewId, content, reply.id);
      return { reply, fresh: authorId ? await freshReview(authorId, ctx) : undefined };
    },
    async (error: unknown) => {
      ctx.replyGuard.release(reviewId, content);
      if (error instanceof ReviewNotFoundError) await markReviewGone(reviewId, ctx);
      throw error;
    },
  );
}

/** The reply is already posted: a failed refresh only means the old count stays on screen. */
async function freshReview(authorId: string, ctx: ReplyContext): Promise<Review | undefined> {
  try {
    return (await ctx.api.getReview(authorId)) ?? undefined;
  } catch (err) {
    ctx.logger.warn({ err, authorId }, 'could not refresh the review after a reply');
    return undefined;
  }
}

/**
 * Posts the reply's audit message. A failure here must not undo or hide a reply that was posted, so it
 * is logged as an error (with the reply id, to reconcile by hand) and swallowed.
 */
async function audit(
  form: ReplyRequest,
  { reply, fresh }: PostedReply,
  actor: Actor,
  way: ReplyWay,
  ctx: ReplyContext,
) {
  const channelId = ctx.settings.auditChannelId;
  if (!channelId) return;
  const view = replyAuditView({
    moderatorId: actor.userId,
    ...(actor.via === 'dashboard' ? { dashboardBy: actor.name ?? actor.userId } : {}),
    review: { id: form.reviewId, authorId: form.authorId ?? undefined, rating: fresh?.rating },
    reply: { id: reply.id, content: form.content, pinned: form.pinned },
    at: ctx.now(),
    i18n: translatorFor(way.serverLocale),
  });
  await tellAuditChannel(way.poster, {
    channelId,
    body: messageBody(view),
    logger: ctx.logger,
    failedLine: 'could not post the reply audit message',
    level: 'error',
    context: { reviewId: form.reviewId, replyId: reply.id },
  });
}

/** Best effort: the member's answer (the review is gone) does not wait on the store. */
async function markReviewGone(reviewId: string, ctx: ReplyContext): Promise<void> {
  try {
    await ctx.feed?.onGone(reviewId, ctx.now().getTime());
  } catch (err) {
    ctx.logger.warn({ err, reviewId }, 'could not take a gone review out of the inbox');
  }
}

/** The review's feed post (if it has one) shows it was answered; a failure there is only logged. */
export async function markFeedAnswered(reviewId: string, reply: Reply, moderatorId: string, ctx: ReplyContext) {
  try {
    await ctx.feed?.onAnswered(reviewId, { replyId: reply.id, moderatorId, at: ctx.now().getTime() });
  } catch (err) {
    ctx.logger.warn({ err, reviewId, replyId: reply.id }, 'could not mark the feed post answered');
  }
}
