import { ButtonStyle } from 'discord-api-types/v10';
import { ActionRowBuilder, ButtonBuilder } from './components.js';
import { EmbedBuilder } from './embed-builder.js';
import { parseReviewId, type Review } from '../api/index.js';
import { EMBED_FOOTER_MAX } from '../core/discord-limits.js';
import { Prefix, encodeCustomId } from '../core/custom-id.js';
import type { Translator } from '../i18n/index.js';
import { exactTime, relativeTime } from './format.js';
import { displayable, mention, safeText, truncate } from '../core/discord-text.js';
import { authorLine } from './review-author.js';
import { messageView, type MessageView } from './message.js';
import { ToneColour } from './theme.js';

/** Room left in the description for the rating line. */
const CONTENT_MAX = 3_800;

/** A review as shown: a list's review may have no rating (null), and then shows no stars. */
type ShownReview = Omit<Review, 'rating'> & { rating: number | null };

export interface ReviewViewInput {
  /** The member who was asked about; used when they have no review. */
  authorId: string;
  review: ShownReview | null;
  /** Offer moderators a Reply button; the click and the modal submit are checked again. */
  showReplyButton: boolean;
  i18n: Translator;
  /** The author's display name, shown beside the mention. */
  authorName?: string;
}

function replyButton(reviewId: string, { t }: Translator): ActionRowBuilder<ButtonBuilder> {
  const button = new ButtonBuilder()
    .setStyle(ButtonStyle.Primary)
    .setLabel(t('review.button'))
    .setCustomId(encodeCustomId(Prefix.reviewReply, reviewId));
  return new ActionRowBuilder<ButtonBuilder>().addComponents(button);
}

function reviewEmbed(review: ShownReview, i18n: Translator, authorName?: string): EmbedBuilder {
  const { t } = i18n;
  const content = review.content.trim() === '' ? t('review.noText') : safeText(review.content, CONTENT_MAX);
  const written = `${relativeTime(review.createdAt)}\n${exactTime(review.createdAt)}`;
  return new EmbedBuilder()
    .setColor(ToneColour.info)
    .setTitle(t('review.title'))
    .setDescription(`${authorLine(review.rating, review.authorId, i18n, authorName)}\n\n${content}`)
    .addFields(
      { name: t('review.field.likes'), value: i18n.number(review.likes), inline: true },
      { name: t('review.field.replies'), value: i18n.number(review.replies), inline: true },
      { name: t('review.field.written'), value: written, inline: true },
    )
    .setFooter({ text: truncate(t('review.footer', { id: displayable(review.id) }), EMBED_FOOTER_MAX) });
}

/** A member's review, or a line saying they have none. */
export function reviewView({ authorId, review, showReplyButton, i18n, authorName }: ReviewViewInput): MessageView {
  const { t } = i18n;
  if (review === null) {
    const embed = new EmbedBuilder()
      .setColor(ToneColour.info)
      .setTitle(t('review.none.title'))
      .setDescription(t('review.none.text', { member: mention(authorId) }));
    return messageView(embed);
  }
  // An id the reply handler would refuse gets no button, rather than one that can only fail.
  const canReply = showReplyButton && parseReviewId(review.id) !== null;
  return messageView(reviewEmbed(review, i18n, authorName), canReply ? [replyButton(review.id, i18n)] : []);
}
