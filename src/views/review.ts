import { ActionRowBuilder, ButtonBuilder, ButtonStyle, EmbedBuilder } from 'discord.js';
import { reviewIdProblem, type Review } from '../api/index.js';
import { EMBED_FOOTER_MAX } from '../discord-limits.js';
import { Prefix, encodeCustomId } from '../custom-id.js';
import { exactTime, formatCount, mention, relativeTime, safeText, truncate } from './format.js';
import { authorLine } from './review-author.js';
import { messageView, type MessageView } from './message.js';
import { ToneColour } from './theme.js';

/** Room left in the description for the rating line. */
const CONTENT_MAX = 3_800;

/** A review id from a custom id, or null: the API module's rule, so a button never carries an id it would refuse. */
export function parseReviewId(arg: string): string | null {
  return reviewIdProblem(arg) === null ? arg : null;
}

export interface ReviewViewInput {
  /** The member who was asked about; used when they have no review. */
  authorId: string;
  review: Review | null;
  /** Offer moderators a Reply button; the click and the modal submit are checked again. */
  showReplyButton: boolean;
}

function replyButton(reviewId: string): ActionRowBuilder<ButtonBuilder> {
  const button = new ButtonBuilder()
    .setStyle(ButtonStyle.Primary)
    .setLabel('Reply')
    .setCustomId(encodeCustomId(Prefix.reviewReply, reviewId));
  return new ActionRowBuilder<ButtonBuilder>().addComponents(button);
}

function reviewEmbed(review: Review): EmbedBuilder {
  const content = review.content.trim() === '' ? '*No text, rating only.*' : safeText(review.content, CONTENT_MAX);
  const written = `${relativeTime(review.createdAt)}\n${exactTime(review.createdAt)}`;
  return new EmbedBuilder()
    .setColor(ToneColour.info)
    .setTitle('Review')
    .setDescription(`${authorLine(review.rating, review.authorId)}\n\n${content}`)
    .addFields(
      { name: 'Likes', value: formatCount(review.likes), inline: true },
      { name: 'Replies', value: formatCount(review.replies), inline: true },
      { name: 'Written', value: written, inline: true },
    )
    .setFooter({ text: truncate(`Review ID: ${review.id}`, EMBED_FOOTER_MAX) });
}

/** A member's review, or a line saying they have none. */
export function reviewView({ authorId, review, showReplyButton }: ReviewViewInput): MessageView {
  if (review === null) {
    const embed = new EmbedBuilder()
      .setColor(ToneColour.info)
      .setTitle('No review')
      .setDescription(`${mention(authorId)} has not written a review yet.`);
    return messageView(embed);
  }
  // An id the reply handler would refuse gets no button, rather than one that can only fail.
  const canReply = showReplyButton && parseReviewId(review.id) !== null;
  return messageView(reviewEmbed(review), canReply ? [replyButton(review.id)] : []);
}
