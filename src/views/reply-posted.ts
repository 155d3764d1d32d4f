import { EmbedBuilder } from './embed-builder.js';
import type { Translator } from '../i18n/index.js';
import { idText, serviceIdText, yesNo } from './format.js';
import { blockQuote, safeText } from '../core/discord-text.js';
import { messageView, type MessageView } from './message.js';
import { ToneColour } from './theme.js';

const QUOTE_MAX = 500;

export interface ReplyPostedInput {
  reviewId: string;
  replyId: string;
  content: string;
  pinned: boolean;
  i18n: Translator;
}

/** The moderator's confirmation that the reply went out (the handler makes it ephemeral). */
export function replyPostedView({ reviewId, replyId, content, pinned, i18n }: ReplyPostedInput): MessageView {
  const { t } = i18n;
  const embed = new EmbedBuilder()
    .setColor(ToneColour.success)
    .setTitle(t('replyPosted.title'))
    .setDescription(blockQuote(safeText(content, QUOTE_MAX)))
    .addFields(
      { name: t('replyPosted.field.pinned'), value: yesNo(pinned, i18n), inline: true },
      { name: t('replyPosted.field.replyId'), value: serviceIdText(replyId, i18n), inline: true },
      { name: t('replyPosted.field.reviewId'), value: idText(reviewId), inline: true },
    );
  return messageView(embed);
}
