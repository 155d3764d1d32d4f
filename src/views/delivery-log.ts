import { inlineCode } from '../core/discord-text.js';
import { EmbedBuilder } from './embed-builder.js';
import type { Translator } from '../i18n/index.js';
import type { DeliveryRecord } from '../store/index.js';
import { exactTime, relativeTime } from './format.js';
import { ToneColour } from './theme.js';

/** The receiver's mark for a body that named no event kind the bot knows. */
const UNREAD_EVENT = '?';

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
): EmbedBuilder {
  const { t } = i18n;
  const embed = new EmbedBuilder().setTitle(t('setup.deliveries.title'));
  if (lines === 'unreadable')
    return embed.setColor(ToneColour.warning).setDescription(t('setup.deliveries.unreadable'));
  if (lines.length === 0) return embed.setColor(ToneColour.info).setDescription(t('setup.deliveries.none'));
  const text = lines.map((line) => {
    const at = new Date(line.at);
    const event = line.event === UNREAD_EVENT ? t('setup.deliveries.unknownEvent') : inlineCode(line.event);
    const mark = line.outcome === 'stored' || line.outcome === 'duplicate' ? '✔' : '✘';
    return `${mark} ${relativeTime(at)} (${exactTime(at)}) · ${event} · ${t(`setup.delivery.${line.outcome}`)}`;
  });
  if (fixes.length > 0) text.push('', ...fixes);
  const allGood = lines.every((line) => line.outcome === 'stored' || line.outcome === 'duplicate');
  return embed.setColor(allGood ? ToneColour.success : ToneColour.warning).setDescription(text.join('\n'));
}
