import { TextInputStyle } from 'discord-api-types/v10';
import { LabelBuilder, ModalBuilder, StringSelectMenuBuilder, TextInputBuilder } from './components.js';
import { parseReviewId, REPLY_MAX_LENGTH, REPLY_MIN_LENGTH } from '../api/index.js';
import { Prefix, encodeCustomId } from '../core/custom-id.js';
import type { Translator } from '../i18n/index.js';

/** The limits as the texts show them: named once (validate-input.ts), never typed into a catalog. */
export const REPLY_LENGTHS = { min: REPLY_MIN_LENGTH, max: REPLY_MAX_LENGTH };

/**
 * Custom ids of the modal's fields. They are read inside one modal submit, never routed, so
 * they do not go through the `prefix:arg` codec. The handler reads them with
 * `fields.getTextInputValue(content)` and `fields.getStringSelectValues(pinned)`.
 */
export const ReplyModalField = {
  content: 'reply-content',
  pinned: 'reply-pinned',
} as const;

export const PinChoice = { no: 'no', yes: 'yes' } as const;

export interface ReplyModalInput {
  reviewId: string;
  i18n: Translator;
}

/** The form a moderator fills in to reply to a review as the guild. */
export function replyModal({ reviewId, i18n: { t } }: ReplyModalInput): ModalBuilder {
  if (parseReviewId(reviewId) === null) throw new Error('replyModal: malformed review id');

  const content = new TextInputBuilder()
    .setCustomId(ReplyModalField.content)
    .setStyle(TextInputStyle.Paragraph)
    .setRequired(true)
    .setMinLength(REPLY_MIN_LENGTH)
    .setMaxLength(REPLY_MAX_LENGTH)
    .setPlaceholder(t('replyModal.content.placeholder'));

  const pinned = new StringSelectMenuBuilder()
    .setCustomId(ReplyModalField.pinned)
    .setRequired(true)
    .setMinValues(1)
    .setMaxValues(1)
    .addOptions(
      { label: t('common.no'), value: PinChoice.no, default: true },
      { label: t('common.yes'), value: PinChoice.yes, description: t('replyModal.pin.yesDescription') },
    );

  return new ModalBuilder()
    .setCustomId(encodeCustomId(Prefix.reviewReplySubmit, reviewId))
    .setTitle(t('replyModal.title'))
    .addLabelComponents(
      new LabelBuilder()
        .setLabel(t('replyModal.content.label'))
        .setDescription(t('replyModal.content.description', REPLY_LENGTHS))
        .setTextInputComponent(content),
      new LabelBuilder().setLabel(t('replyModal.pin.label')).setStringSelectMenuComponent(pinned),
    );
}
