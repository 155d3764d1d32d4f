import { TextInputStyle } from 'discord-api-types/v10';
import { LabelBuilder, ModalBuilder, StringSelectMenuBuilder, TextInputBuilder } from './components.js';
import { REPLY_MAX_LENGTH, REPLY_MIN_LENGTH } from '../api/index.js';

/** The limits as the texts show them: named once (validate-input.ts), never typed into a catalog. */
const REPLY_LENGTHS = { min: REPLY_MIN_LENGTH, max: REPLY_MAX_LENGTH };
import { Prefix, encodeCustomId } from '../core/custom-id.js';
import type { NoticeKey, Translator, Vars } from '../i18n/index.js';
import { parseReviewId } from './review.js';

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

export type ReplyModalResult =
  { ok: true; content: string; pinned: boolean } | { ok: false; problem: NoticeKey; vars?: Vars };

function readPinned(value: readonly string[] | string | undefined): boolean | null {
  if (value === undefined) return false;
  const single = typeof value === 'string' ? value : value.length > 1 ? null : (value[0] ?? '');
  if (single === null) return null;
  const answer = single.trim().toLowerCase();
  if (answer === '' || answer === PinChoice.no) return false;
  if (answer === PinChoice.yes) return true;
  return null;
}

/**
 * Checks a submitted reply form; the modal's own limits can be bypassed by a forged submit.
 * Length is JavaScript string length (UTF-16 units, an emoji counts as two): the strictest way
 * to count, so a reply accepted here fits a 1,000 limit however the service counts.
 */
export function readReplyModal(values: {
  content: string;
  /** The select's values, a typed answer, or undefined when the field is absent. */
  pinned: readonly string[] | string | undefined;
}): ReplyModalResult {
  const content = values.content.trim();
  if (content.length < REPLY_MIN_LENGTH) {
    return { ok: false, problem: 'refusal.replyEmpty', vars: REPLY_LENGTHS };
  }
  if (content.length > REPLY_MAX_LENGTH) {
    return { ok: false, problem: 'refusal.replyTooLong', vars: { ...REPLY_LENGTHS, length: content.length } };
  }
  const pinned = readPinned(values.pinned);
  if (pinned === null) {
    return { ok: false, problem: 'refusal.replyPinChoice' };
  }
  return { ok: true, content, pinned };
}
