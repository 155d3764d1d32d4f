import { EmbedBuilder } from 'discord.js';
import { blockQuote, idText, safeText, yesNo } from './format.js';
import { messageView, type MessageView } from './message.js';
import { ToneColour } from './theme.js';

const QUOTE_MAX = 500;

export interface ReplyPostedInput {
  reviewId: string;
  replyId: string;
  content: string;
  pinned: boolean;
}

/** The moderator's confirmation that the reply went out (the handler makes it ephemeral). */
export function replyPostedView({ reviewId, replyId, content, pinned }: ReplyPostedInput): MessageView {
  const embed = new EmbedBuilder()
    .setColor(ToneColour.success)
    .setTitle('Reply posted')
    .setDescription(blockQuote(safeText(content, QUOTE_MAX)))
    .addFields(
      { name: 'Pinned', value: yesNo(pinned), inline: true },
      { name: 'Reply ID', value: idText(replyId), inline: true },
      { name: 'Review ID', value: idText(reviewId), inline: true },
    );
  return messageView(embed);
}
