import { EmbedBuilder } from './embed-builder.js';
import type { Translator } from '../i18n/index.js';
import { exactTime, idText, relativeTime, serviceIdText, stars, yesNo } from './format.js';
import { EMBED_FOOTER_MAX } from '../core/discord-limits.js';
import { displayable, mention, safeText, truncate } from '../core/discord-text.js';
import { messageView, type MessageView } from './message.js';
import { ToneColour } from './theme.js';

/** A 1,000-character reply stays whole even when every character needs escaping. */
const REPLY_TEXT_MAX = 4_000;

export interface ReplyAuditInput {
  moderatorId: string;
  /** Set when the reply was posted on the dashboard: the member's name, said in the footer. */
  dashboardBy?: string;
  /** What the handler knows of the review; author and rating may be unknown at submit time. */
  review: { id: string; authorId?: string; rating?: number };
  reply: { id: string; content: string; pinned: boolean };
  at: Date;
  /** The server's language: the audit channel is read by its moderators, not one member. */
  i18n: Translator;
}

/** A user shown both as a mention and as a raw id, which still reads after they leave the guild. */
function who(userId: string): string {
  return `${mention(userId)} (${idText(userId)})`;
}

/**
 * The log-channel record of a reply: the only record of which moderator wrote what, so the
 * text is kept whole (escaped, never cut for length in practice).
 */
export function replyAuditView({ moderatorId, dashboardBy, review, reply, at, i18n }: ReplyAuditInput): MessageView {
  const { t } = i18n;
  const embed = new EmbedBuilder()
    .setColor(ToneColour.info)
    .setTitle(t('audit.title'))
    .setDescription(safeText(reply.content, REPLY_TEXT_MAX))
    .addFields(
      { name: t('audit.field.moderator'), value: who(moderatorId) },
      { name: t('audit.field.author'), value: review.authorId ? who(review.authorId) : t('common.unknown') },
      {
        name: t('audit.field.rating'),
        value: review.rating === undefined ? t('common.unknown') : stars(review.rating),
        inline: true,
      },
      { name: t('replyPosted.field.pinned'), value: yesNo(reply.pinned, i18n), inline: true },
      { name: t('audit.field.time'), value: `${exactTime(at)} (${relativeTime(at)})`, inline: true },
      { name: t('replyPosted.field.reviewId'), value: idText(review.id), inline: true },
      { name: t('replyPosted.field.replyId'), value: serviceIdText(reply.id, i18n), inline: true },
    )
    .setTimestamp(at);
  // A footer is plain text: the name is shown as typed (made displayable), pinging no one.
  if (dashboardBy !== undefined)
    embed.setFooter({
      text: truncate(t('audit.dashboard.replied', { name: displayable(dashboardBy) }), EMBED_FOOTER_MAX),
    });
  return messageView(embed);
}
