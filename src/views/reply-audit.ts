import { EmbedBuilder } from 'discord.js';
import { exactTime, idText, mention, relativeTime, safeText, stars, yesNo } from './format.js';
import { messageView, type MessageView } from './message.js';
import { ToneColour } from './theme.js';

/** A 1,000-character reply stays whole even when every character needs escaping. */
const REPLY_TEXT_MAX = 4_000;

export interface ReplyAuditInput {
  moderatorId: string;
  /** What the handler knows of the review; author and rating may be unknown at submit time. */
  review: { id: string; authorId?: string; rating?: number };
  reply: { id: string; content: string; pinned: boolean };
  at: Date;
}

/** A user shown both as a mention and as a raw id, which still reads after they leave the guild. */
function who(userId: string): string {
  return `${mention(userId)} (${idText(userId)})`;
}

/**
 * The log-channel record of a reply: the only record of which moderator wrote what, so the
 * text is kept whole (escaped, never cut for length in practice).
 */
export function replyAuditView({ moderatorId, review, reply, at }: ReplyAuditInput): MessageView {
  const embed = new EmbedBuilder()
    .setColor(ToneColour.info)
    .setTitle('Review reply posted')
    .setDescription(safeText(reply.content, REPLY_TEXT_MAX))
    .addFields(
      { name: 'Moderator', value: who(moderatorId) },
      { name: 'Review author', value: review.authorId ? who(review.authorId) : 'Unknown' },
      { name: 'Rating', value: review.rating === undefined ? 'Unknown' : stars(review.rating), inline: true },
      { name: 'Pinned', value: yesNo(reply.pinned), inline: true },
      { name: 'Time', value: `${exactTime(at)} (${relativeTime(at)})`, inline: true },
      { name: 'Review ID', value: idText(review.id), inline: true },
      { name: 'Reply ID', value: idText(reply.id), inline: true },
    )
    .setTimestamp(at);
  return messageView(embed);
}
