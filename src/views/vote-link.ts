import { ButtonStyle } from 'discord-api-types/v10';
import { ActionRowBuilder, ButtonBuilder } from './components.js';
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

/** Discord takes at most this many buttons in a row. */
const ROW_BUTTONS = 5;

/** A "Vote on <list>" link button per list with a vote page, five to a row. */
export function listLinkRows(
  lists: ReadonlyArray<{ name: string; votePage?: string }>,
  { t }: Translator,
): ActionRowBuilder<ButtonBuilder>[] {
  const buttons = lists.flatMap(({ name, votePage }) =>
    votePage !== undefined && isLinkUrl(votePage)
      ? [
          new ButtonBuilder()
            .setStyle(ButtonStyle.Link)
            .setLabel(t('vote.button.site', { site: name }))
            .setURL(votePage),
        ]
      : [],
  );
  const rows: ActionRowBuilder<ButtonBuilder>[] = [];
  for (let at = 0; at < buttons.length; at += ROW_BUTTONS)
    rows.push(new ActionRowBuilder<ButtonBuilder>().addComponents(buttons.slice(at, at + ROW_BUTTONS)));
  return rows;
}
