import { GUILD_NAME_MAX } from '../core/discord-limits.js';
import { EmbedBuilder } from './embed-builder.js';
import type { Translator } from '../i18n/index.js';
import { inlineCode, mention, safeText } from '../core/discord-text.js';
import { messageView, type MessageView } from './message.js';
import { ToneColour } from './theme.js';
import { voteLinkRows } from './vote-link.js';

/** `/remind off` as the member's client names it. */
export function remindCommand({ t }: Translator, choice: 'on' | 'off' | 'status'): string {
  return inlineCode(`/${t('command.remind.name')} ${t(`option.remind.${choice}.name`)}`);
}

/**
 * The DM: the vote ran out, here is the page to vote again, and how to stop these. `listName`: the
 * list it was cast on, for a vote on a list other than Guilds (its page is the list's own, not VOTE_URL).
 */
export function reminderView(
  serverName: string,
  voteUrl: string | undefined,
  i18n: Translator,
  listName?: string,
): MessageView {
  const { t } = i18n;
  const server = safeText(serverName, GUILD_NAME_MAX);
  const embed = new EmbedBuilder()
    .setColor(ToneColour.info)
    .setTitle(listName === undefined ? t('reminder.title') : t('reminder.titleSite', { site: listName }))
    .setDescription(
      listName === undefined ? t('reminder.text', { server }) : t('reminder.textSite', { server, site: listName }),
    )
    .setFooter({ text: t('reminder.footer', { on: remindCommand(i18n, 'on'), off: remindCommand(i18n, 'off') }) });
  return messageView(embed, listName === undefined ? voteLinkRows(voteUrl, i18n) : []);
}

/** The same reminder in the fallback channel, for a member whose DMs are closed: it names them. */
export function reminderMentionView(
  userId: string,
  serverName: string,
  voteUrl: string | undefined,
  i18n: Translator,
  listName?: string,
): MessageView & { content: string } {
  const member = mention(userId);
  return {
    ...reminderView(serverName, voteUrl, i18n, listName),
    content:
      listName === undefined
        ? i18n.t('reminder.closedDms', { member })
        : i18n.t('reminder.closedDmsSite', { member, site: listName }),
  };
}
