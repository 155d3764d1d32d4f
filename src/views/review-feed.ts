import type { Translator } from '../i18n/index.js';
import { ButtonStyle } from 'discord-api-types/v10';
import { ActionRowBuilder, ButtonBuilder } from './components.js';
import { Prefix, encodeCustomId } from '../core/custom-id.js';
import { BUTTONS_PER_ROW_MAX, EMBED_TOTAL_MAX, EMBEDS_PER_MESSAGE_MAX } from '../core/discord-limits.js';
import type { FeedReview } from '../store/index.js';
import { embedSize } from './embed-size.js';
import { durationInWords, exactTime, relativeTime } from './format.js';
import { mention } from '../core/discord-text.js';
import type { MessageView } from './message.js';
import { reviewView } from './review.js';
import { parseReviewId } from '../api/index.js';
import { ToneColour } from './theme.js';

/** The list besides Guilds a review came from (lists/review-id.ts): its name and where to read it. */
export interface ReviewOrigin {
  name: string;
  url?: string;
}

/** Which list each review came from; undefined for Guilds' own. */
export type OriginOf = (reviewId: string) => ReviewOrigin | undefined;

/**
 * The button under review `number` of a post or a page: a link to the review on its list, or Reply
 * (grey once answered). An id the reply handler would refuse gets no button (as in reviewView); the
 * numbers still match.
 */
export function numberedReviewButton(
  review: { reviewId: string; answer?: unknown },
  origin: ReviewOrigin | undefined,
  i18n: Translator,
  number: string,
): ButtonBuilder | undefined {
  if (origin) return openOnSiteButton(origin, i18n, ` ${number}`);
  if (parseReviewId(review.reviewId) === null) return undefined;
  return new ButtonBuilder()
    .setStyle(review.answer ? ButtonStyle.Secondary : ButtonStyle.Primary)
    .setLabel(`${i18n.t('review.button')} ${number}`)
    .setCustomId(encodeCustomId(Prefix.reviewReply, review.reviewId));
}

/** The link to a list's review on the site: no reply API there, so no Reply button. */
function openOnSiteButton(origin: ReviewOrigin, { t }: Translator, suffix = ''): ButtonBuilder | undefined {
  if (origin.url === undefined) return undefined;
  return new ButtonBuilder()
    .setStyle(ButtonStyle.Link)
    .setLabel(`${t('review.openOn', { site: origin.name })}${suffix}`)
    .setURL(origin.url);
}

/**
 * A review as the feed shows it: the `/review` embed with the same Reply button, titled as new,
 * and once answered, marked so moderators see at a glance that it needs nothing more. While it
 * waits, a Discord relative timestamp says for how long: each client renders it as "3 hours ago"
 * and keeps it current, in its own language, so the post needs no edits (the lanes' edit budget
 * stays for answers). Once answered, the wait is fixed and written out.
 */
export function reviewFeedView(
  post: FeedReview,
  i18n: Translator,
  authorName?: string,
  origin?: ReviewOrigin,
): MessageView {
  const { t } = i18n;
  const answered = post.answer !== null;
  const view = reviewView({
    authorId: post.authorId,
    review: {
      id: post.reviewId,
      authorId: post.authorId,
      rating: post.rating,
      content: post.content,
      // A webhook says nothing of likes or replies: a new review has none, an answered one has one.
      likes: 0,
      replies: answered ? 1 : 0,
      createdAt: new Date(post.receivedAt),
    },
    showReplyButton: origin === undefined,
    i18n,
    authorName,
  });
  const [embed] = view.embeds;
  embed?.setTitle(
    origin
      ? t('feed.review.listTitle', { site: origin.name })
      : t(answered ? 'feed.review.answeredTitle' : 'feed.review.title'),
  );
  const link = origin && openOnSiteButton(origin, i18n);
  if (link) view.components = [new ActionRowBuilder<ButtonBuilder>().addComponents(link)];
  if (post.answer) {
    const at = new Date(post.answer.at);
    const when = `${relativeTime(at)} (${exactTime(at)})`;
    const answered = post.answer.moderatorId
      ? t('feed.review.answeredBy', { moderator: mention(post.answer.moderatorId), when })
      : t('feed.review.answeredAt', { when });
    const waited = t('feed.review.waited', { duration: durationInWords(post.answer.at - post.receivedAt, i18n) });
    embed
      ?.setColor(ToneColour.success)
      .addFields({ name: t('feed.review.answered'), value: `${answered} · ${waited}` });
  } else {
    embed?.addFields({ name: t('feed.review.waiting'), value: relativeTime(new Date(post.receivedAt)) });
  }
  return view;
}

/** Each review is one embed, with its own Reply button. */
export const REVIEWS_PER_POST = EMBEDS_PER_MESSAGE_MAX;

/**
 * Reviews that waited together, in one message: each review's feed embed, numbered, with a
 * numbered Reply button of its own. As many as fit Discord's embed limits; `count` says how many.
 * One review is drawn exactly as `reviewFeedView` draws it.
 */
export function reviewFeedBatchView(
  reviews: readonly FeedReview[],
  i18n: Translator,
  names: ReadonlyMap<string, string> = new Map(),
  originOf: OriginOf = () => undefined,
): { view: MessageView; count: number } {
  const first = reviews[0];
  if (first === undefined) throw new Error('no review to draw');
  if (reviews.length === 1)
    return { view: reviewFeedView(first, i18n, names.get(first.authorId), originOf(first.reviewId)), count: 1 };
  const embeds = [];
  const buttons: ButtonBuilder[] = [];
  let size = 0;
  for (const [index, review] of reviews.slice(0, REVIEWS_PER_POST).entries()) {
    const number = `#${index + 1}`;
    const origin = originOf(review.reviewId);
    const [embed] = reviewFeedView(review, i18n, names.get(review.authorId), origin).embeds;
    if (!embed) continue;
    embed.setAuthor({ name: number });
    const added = embedSize(embed);
    if (embeds.length > 0 && size + added > EMBED_TOTAL_MAX) break;
    size += added;
    embeds.push(embed);
    const button = numberedReviewButton(review, origin, i18n, number);
    if (button) buttons.push(button);
  }
  const rows = [];
  for (let i = 0; i < buttons.length; i += BUTTONS_PER_ROW_MAX)
    rows.push(new ActionRowBuilder<ButtonBuilder>().addComponents(buttons.slice(i, i + BUTTONS_PER_ROW_MAX)));
  return { view: { embeds, components: rows, allowedMentions: { parse: [] } }, count: embeds.length };
}
