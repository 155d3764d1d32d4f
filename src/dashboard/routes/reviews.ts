import { InvalidInputError, parseReviewId, ReplyRefusedError } from '../../api/index.js';
import { errorOutcome } from '../../bot/error-outcome.js';
import { discordPoster } from '../../bot/poster.js';
import { UserFacingError } from '../../bot/user-error.js';
import { secretValues } from '../../config/bot.js';
import { listReviewOrigin } from '../../lists/index.js';
import { postReviewReply } from '../../replies/post-reply.js';
import { formOf } from '../form-body.js';
import { PAGES } from '../pages/form.js';
import {
  INBOX_PAGE_SIZE,
  REPLY_FIELDS,
  reviewsPage,
  type InboxReview,
  type ReviewsPageInput,
} from '../pages/reviews.js';
import type { At, GuildRoute, PageRoutes } from './kit.js';
import { backTo, doneOf, notSetUp, withNotice, type Notice } from './records-notice.js';

/**
 * The review inbox: the reviews no one has answered, a page at a time, each with a reply form that
 * posts through the one reply path (replies/) as the Reply button does, with the member as a
 * dashboard actor.
 */
export const reviewsRoutes: PageRoutes = (app, kit) => {
  app.get<GuildRoute>(`/servers/:guildId/${PAGES.reviews}`, kit.gates.read, async (request, reply) => {
    const v = await kit.visit(request, reply, false);
    if (!v) return reply;
    return show({ kit, request, reply, v }, inboxPage(request.query.page), { notice: doneOf(request, v.i18n) });
  });

  app.post<GuildRoute>(`/servers/:guildId/${PAGES.reviews}`, kit.gates.change, async (request, reply) => {
    const v = await kit.visit(request, reply, false);
    return v ? post({ kit, request, reply, v }) : reply;
  });
};

async function inbox({ kit, v: { guild } }: At, number: number): Promise<{ reviews: InboxReview[]; total: number }> {
  const { deps } = kit;
  const found = await deps.unanswered(guild.id, INBOX_PAGE_SIZE, (number - 1) * INBOX_PAGE_SIZE);
  // A name the bot has not cached is asked of its view (a page is a handful of reviews); a list's
  // delivery's name only when Discord has none; one who left the server shows as their id.
  const cached = (await deps.context(guild.id))?.names;
  const names = await Promise.all(
    found.reviews.map(async ({ authorId }) => {
      const known = cached?.get(authorId, 'discord');
      if (known !== undefined) return known;
      const member = await deps.view.member(guild, authorId).catch(() => undefined);
      return member?.displayName ?? cached?.get(authorId, 'delivery');
    }),
  );
  const reviews = found.reviews.map((review, index) => ({
    reviewId: review.reviewId,
    authorId: review.authorId,
    authorName: names[index],
    rating: review.rating,
    text: review.content,
    at: review.receivedAt,
    site: listReviewOrigin(review.reviewId, guild.id)?.name,
  }));
  return { reviews, total: found.total };
}

async function show(
  at: At,
  number: number,
  { notice, status = 200, kept }: { notice?: Notice; status?: number; kept?: ReviewsPageInput['kept'] },
) {
  const { kit, request, reply, v } = at;
  const found = await inbox(at, number);
  const body = reviewsPage({ guildId: v.guild.id, csrf: v.csrf, i18n: v.i18n, ...found, page: number, kept });
  return kit.send(request, reply, v, 'reviews', withNotice(request, notice, v.i18n, body), status);
}

/** A reply from the inbox's form, posted by the one reply path; refused or failed, the page again with the text kept. */
async function post(at: At) {
  const { kit, request, reply, v } = at;
  const { deps } = kit;
  const { guild } = v;
  const form = formOf(request);
  const content = form[REPLY_FIELDS.reply];
  const text = typeof content === 'string' ? content : '';
  const pinned = form[REPLY_FIELDS.pinned] === 'on';
  try {
    const reviewId = parseReviewId(String(form[REPLY_FIELDS.review] ?? ''));
    const review = reviewId === null ? undefined : await deps.review(guild.id, reviewId);
    // A list's review is answered on its site; the inbox offers no form for it, so this was forged or stale.
    if (!review || review.answer !== null || listReviewOrigin(review.reviewId, guild.id))
      throw new UserFacingError('refusal.reviewGone');
    const ctx = await deps.context(guild.id);
    if (!ctx) throw notSetUp(v.i18n);
    await postReviewReply(
      ctx,
      { reviewId: review.reviewId, content: text, pinned, authorId: review.authorId },
      v.actor,
      { poster: discordPoster(guild.client.rest), serverLocale: guild.preferredLocale },
    );
    return backTo(reply, guild.id, PAGES.reviews, 'replied');
  } catch (error) {
    // The page the form was on, with what was typed back in it: a refusal must not cost the text.
    const kept = { reviewId: String(form[REPLY_FIELDS.review] ?? ''), text, pinned };
    const page = inboxPage(form[REPLY_FIELDS.page]);
    if (error instanceof UserFacingError) return show(at, page, { notice: { refused: error }, status: 400, kept });
    // The service down or refusing: said as the Reply button says it; the bot's own faults stay errors.
    const outcome = errorOutcome(error, v.i18n, secretValues(deps.base.config));
    if (outcome.outcome === 'error') throw error;
    const logged = { err: error, guildId: guild.id, reason: outcome.reason };
    deps.logger[outcome.logLevel](logged, 'dashboard reply not posted');
    // 400 when the service refused what was written; 502 when it failed, or may have taken it.
    const status = error instanceof ReplyRefusedError || error instanceof InvalidInputError ? 400 : 502;
    return show(at, page, { notice: { failed: outcome.message }, status, kept });
  }
}

/** An inbox page number from a query or a form: a whole number from 1 to 10,000, else the first page. */
function inboxPage(value: unknown): number {
  const asked = Number(typeof value === 'string' ? value : '1');
  return Number.isInteger(asked) && asked >= 1 && asked <= 10_000 ? asked : 1;
}
