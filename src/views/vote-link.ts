import { ActionRowBuilder, ButtonBuilder, ButtonStyle } from 'discord.js';
import { BUTTON_URL_MAX } from '../core/discord-limits.js';
import type { Translator } from '../i18n/index.js';

/** Discord accepts link buttons with http(s) URLs of at most BUTTON_URL_MAX characters. */
function isLinkUrl(url: string): boolean {
  if (url.length > BUTTON_URL_MAX) return false;
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/** The "Vote now" link button to the guild's voting page (VOTE_URL), or nothing when there is no usable page. */
export function voteLinkRows(voteUrl: string | undefined, { t }: Translator): ActionRowBuilder<ButtonBuilder>[] {
  if (voteUrl === undefined || !isLinkUrl(voteUrl)) return [];
  const button = new ButtonBuilder().setStyle(ButtonStyle.Link).setLabel(t('vote.button')).setURL(voteUrl);
  return [new ActionRowBuilder<ButtonBuilder>().addComponents(button)];
}
