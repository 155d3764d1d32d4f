import { ButtonStyle } from 'discord-api-types/v10';
import { ActionRowBuilder, ButtonBuilder } from './components.js';
import { EmbedBuilder } from './embed-builder.js';
import { encodeCustomId, Prefix } from '../core/custom-id.js';
import { EMBED_TOTAL_MAX } from '../core/discord-limits.js';
import type { Translator } from '../i18n/index.js';
import type { FeedReview } from '../store/index.js';
import { embedSize } from './embed-size.js';
import { truncate } from '../core/discord-text.js';
import type { MessageView } from './message.js';
import { pageButtons, parsePage } from './paging.js';
import { numberedReviewButton, reviewFeedView, type OriginOf } from './review-feed.js';
import { ToneColour } from './theme.js';

/** Five reviews a page: one row of Reply buttons, and their embeds inside Discord's 6,000 characters. */
export const INBOX_PAGE_SIZE = 5;

/** The page number in a `reviews-page:<N>` custom id, or null when it is not a sane page. */
export const parseReviewsPage = parsePage;

const reviewsPageId = (page: number) => encodeCustomId(Prefix.reviewsPage, String(page));

export interface ReviewInboxInput {
  /** The page's reviews, oldest first. */
  reviews: readonly FeedReview[];
  /** How many wait in all. */
  total: number;
  /** 1-based, already clamped into range. */
  current: number;
  pageCount: number;
  i18n: Translator;
  names?: ReadonlyMap<string, string>;
  /** Which list each review came from: labelled, with a link to the site instead of Reply. */
  originOf?: OriginOf;
}

/**
 * `/reviews pending`: a header with the count and the page, then each waiting review as the feed
 * draws it (so it says how long it has waited), numbered, with a numbered Reply button. Below, the
 * paging row, or on a single page a Refresh button (replies from elsewhere take reviews off): the reply
 * form finds the inbox, and its page, by that row.
 */
export function reviewInboxView(input: ReviewInboxInput): MessageView {
  const { reviews, total, current, pageCount, i18n, names, originOf = () => undefined } = input;
  const { t } = i18n;
  const header = new EmbedBuilder().setTitle(t('inbox.title'));
  if (total === 0 || reviews.length === 0) {
    header.setColor(ToneColour.success).setDescription(t('inbox.empty'));
    return { embeds: [header], components: [], allowedMentions: { parse: [] } };
  }
  header
    .setColor(ToneColour.warning)
    .setDescription(t('inbox.summary', { count: i18n.number(total) }))
    .setFooter({ text: t('votes.page', { page: current, pages: pageCount }) });
  const first = (current - 1) * INBOX_PAGE_SIZE;
  const shown = reviews.slice(0, INBOX_PAGE_SIZE);
  // Each review gets an equal share of what the header leaves, so the page always shows all of them.
  const share = Math.floor((EMBED_TOTAL_MAX - embedSize(header)) / shown.length);
  const embeds = [header];
  const buttons: ButtonBuilder[] = [];
  for (const [index, review] of shown.entries()) {
    const number = `#${first + index + 1}`;
    const origin = originOf(review.reviewId);
    const [embed] = reviewFeedView(review, i18n, names?.get(review.authorId), origin).embeds;
    if (!embed) continue;
    embed.setAuthor({ name: number });
    fitInto(embed, share);
    embeds.push(embed);
    // Pending reviews are unanswered: Reply is never grey here.
    const button = numberedReviewButton({ reviewId: review.reviewId }, origin, i18n, number);
    if (button) buttons.push(button);
  }
  const rows = buttons.length > 0 ? [new ActionRowBuilder<ButtonBuilder>().addComponents(buttons)] : [];
  rows.push(
    pageCount > 1
      ? pageButtons({ current, pageCount }, reviewsPageId, i18n)
      : new ActionRowBuilder<ButtonBuilder>().addComponents(
          new ButtonBuilder()
            .setStyle(ButtonStyle.Secondary)
            .setLabel(t('inbox.refresh'))
            .setCustomId(reviewsPageId(1)),
        ),
  );
  return { embeds, components: rows, allowedMentions: { parse: [] } };
}

/** Shortens the review's text (its description) until the embed fits `size` characters. */
function fitInto(embed: EmbedBuilder, size: number): void {
  const over = embedSize(embed) - size;
  const description = embed.data.description ?? '';
  if (over > 0) embed.setDescription(truncate(description, Math.max(1, description.length - over)));
}

interface ShownMessage {
  readonly embeds: ReadonlyArray<{ readonly author?: { name: string } | null }>;
  readonly components: ReadonlyArray<unknown>;
}

/**
 * The inbox page a message shows, or null for any other message: an inbox has the paging row, and
 * its first review's number (`#6`) gives the page. Lets a reply sent from the inbox redraw that page.
 */
export function inboxPageOf(message: ShownMessage): number | null {
  const ids = message.components.flatMap((row) =>
    ((row as { components?: Array<{ customId?: string; custom_id?: string }> }).components ?? []).map(
      (button) => button.customId ?? button.custom_id,
    ),
  );
  if (!ids.some((id) => id?.startsWith(`${Prefix.reviewsPage}:`))) return null;
  const number = /^#(\d{1,6})$/.exec(message.embeds[1]?.author?.name ?? '')?.[1];
  return number === undefined ? 1 : Math.ceil(Number(number) / INBOX_PAGE_SIZE) || 1;
}
