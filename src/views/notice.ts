import { EmbedBuilder } from './embed-builder.js';
import { EMBED_DESCRIPTION_MAX, EMBED_FOOTER_MAX, EMBED_TITLE_MAX } from '../core/discord-limits.js';
import type { Translator } from '../i18n/index.js';
import { truncate } from '../core/discord-text.js';
import { messageView, type MessageView } from './message.js';
import { ToneColour, type Tone } from './theme.js';

export interface NoticeInput {
  tone: Tone;
  /** Bot-written text; escape anything a user wrote with `safeText` before passing it. */
  title: string;
  description: string;
  /** Short id also written to the log, so a member can quote it to an administrator. */
  referenceId?: string;
  i18n: Translator;
}

function noticeEmbed({ tone, title, description, referenceId, i18n }: NoticeInput): EmbedBuilder {
  const embed = new EmbedBuilder()
    .setColor(ToneColour[tone])
    .setTitle(truncate(title, EMBED_TITLE_MAX))
    .setDescription(truncate(description, EMBED_DESCRIPTION_MAX));
  if (referenceId)
    embed.setFooter({ text: truncate(i18n.t('notice.reference', { reference: referenceId }), EMBED_FOOTER_MAX) });
  return embed;
}

/** A plain notice or error, the same look everywhere. */
export function noticeView(input: NoticeInput): MessageView {
  return messageView(noticeEmbed(input));
}
