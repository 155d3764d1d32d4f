import { inlineCode } from 'discord.js';
import { GUILD_NAME_MAX } from '../core/discord-limits.js';
import { EmbedBuilder } from './embed-builder.js';
import type { Translator } from '../i18n/index.js';
import { mention, safeText } from '../core/discord-text.js';
import { messageView, type MessageView } from './message.js';
import { ToneColour } from './theme.js';
import { voteLinkRows } from './vote-link.js';

/** `/remind off` as the member's client names it. */
export function remindCommand({ t }: Translator, choice: 'on' | 'off' | 'status'): string {
  return inlineCode(`/${t('command.remind.name')} ${t(`option.remind.${choice}.name`)}`);
}

/** The DM: the vote ran out, here is the page to vote again, and how to stop these. */
export function reminderView(serverName: string, voteUrl: string | undefined, i18n: Translator): MessageView {
  const { t } = i18n;
  const embed = new EmbedBuilder()
    .setColor(ToneColour.info)
    .setTitle(t('reminder.title'))
    .setDescription(t('reminder.text', { server: safeText(serverName, GUILD_NAME_MAX) }))
    .setFooter({ text: t('reminder.footer', { on: remindCommand(i18n, 'on'), off: remindCommand(i18n, 'off') }) });
  return messageView(embed, voteLinkRows(voteUrl, i18n));
}

/** The same reminder in the fallback channel, for a member whose DMs are closed: it names them. */
export function reminderMentionView(
  userId: string,
  serverName: string,
  voteUrl: string | undefined,
  i18n: Translator,
): MessageView & { content: string } {
  return {
    ...reminderView(serverName, voteUrl, i18n),
    content: i18n.t('reminder.closedDms', { member: mention(userId) }),
  };
}
