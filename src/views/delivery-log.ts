import { inlineCode } from '../core/discord-text.js';
import { EmbedBuilder } from './embed-builder.js';
import type { Translator } from '../i18n/index.js';
import type { DeliveryRecord } from '../store/index.js';
import { exactTime, relativeTime } from './format.js';
import { ToneColour } from './theme.js';

/** The receiver's mark for a body that named no event kind the bot knows. */
const UNREAD_EVENT = '?';

/**
 * A logged event as an admin reads it: a list's by the list's name (`topgg vote` → Top.gg and
 * `vote`), Guilds' by its kind alone; a kind the receiver could not read (`unread`), said in words.
 */
export function deliveryEvent(
  event: string,
  { t }: Translator,
  listName: ListName,
): { list?: string; kind: string; unread: boolean } {
  const [first = '', ...rest] = event.split(' ');
  const list = rest.length > 0 ? listName(first) : undefined;
  const kind = list === undefined ? event : rest.join(' ');
  const unread = kind === UNREAD_EVENT;
  const shown = unread ? t('setup.deliveries.unknownEvent') : kind;
  return list === undefined ? { kind: shown, unread } : { list, kind: shown, unread };
}

/** A list's name by its id (lists/sites.ts `listName`); undefined for anything else. */
export type ListName = (id: string) => string | undefined;

/**
 * `/setup status`'s second embed: the server's last webhook deliveries, newest first, one line
 * each (when, event kind, outcome), and how to fix what shows refused. Nothing else of a
 * delivery is kept, so nothing secret can show.
 */
export function deliveryLogEmbed(
  lines: readonly DeliveryRecord[] | 'unreadable',
  i18n: Translator,
  /** How to mend what it shows refused (setup/delivery-fixes.ts), one line each. */
  fixes: readonly string[],
  listName: ListName,
): EmbedBuilder {
  const { t } = i18n;
  const embed = new EmbedBuilder().setTitle(t('setup.deliveries.title'));
  if (lines === 'unreadable')
    return embed.setColor(ToneColour.warning).setDescription(t('setup.deliveries.unreadable'));
  if (lines.length === 0) return embed.setColor(ToneColour.info).setDescription(t('setup.deliveries.none'));
  const text = lines.map((line) => {
    const at = new Date(line.at);
    const { list, kind, unread } = deliveryEvent(line.event, i18n, listName);
    const event = `${list ? `${list} ` : ''}${unread ? kind : inlineCode(kind)}`;
    const mark = line.outcome === 'stored' || line.outcome === 'duplicate' ? '✔' : '✘';
    return `${mark} ${relativeTime(at)} (${exactTime(at)}) · ${event} · ${t(`setup.delivery.${line.outcome}`)}`;
  });
  if (fixes.length > 0) text.push('', ...fixes);
  const allGood = lines.every((line) => line.outcome === 'stored' || line.outcome === 'duplicate');
  return embed.setColor(allGood ? ToneColour.success : ToneColour.warning).setDescription(text.join('\n'));
}
