import { inlineCode } from 'discord.js';
import { EmbedBuilder } from './embed-builder.js';
import type { Translator } from '../i18n/index.js';
import type { DeliveryRecord } from '../store/index.js';
import { exactTime, relativeTime } from './format.js';
import { ToneColour } from './theme.js';
import { isAdaptedSiteId, listingSecretVariable, SITE_FACTS } from '../lists/index.js';

/** The receiver's mark for a body that named no event kind the bot knows. */
const UNREAD_EVENT = '?';

/**
 * `/setup status`'s second embed: the server's last webhook deliveries, newest first, one line
 * each (when, event kind, outcome), and how to fix a wrong token when one shows. Nothing else of a
 * delivery is kept, so nothing secret can show.
 */
export function deliveryLogEmbed(
  lines: readonly DeliveryRecord[] | 'unreadable',
  i18n: Translator,
  fixTokenWith: string,
  environmentSites: ReadonlySet<string> = new Set(),
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
  const fixes = deliveryFixes(lines, i18n, fixTokenWith, environmentSites);
  if (fixes.length > 0) text.push('', ...fixes);
  const allGood = lines.every((line) => line.outcome === 'stored' || line.outcome === 'duplicate');
  return embed.setColor(allGood ? ToneColour.success : ToneColour.warning).setDescription(text.join('\n'));
}

/**
 * How to mend what the log shows refused, one line per cause: a wrong Guilds token (fixed with
 * `fixTokenWith`), and per list a secret or signature that does not match (pasted again with
 * /setup listing add, or LISTING_<SITE>_SECRET set right when the list is one of `environmentSites`).
 */
export function deliveryFixes(
  lines: readonly DeliveryRecord[],
  { t }: Translator,
  fixTokenWith: string,
  environmentSites: ReadonlySet<string>,
): string[] {
  const fixes: string[] = [];
  if (lines.some((line) => line.outcome === 'wrong_token'))
    fixes.push(t('setup.delivery.fixToken', { command: fixTokenWith }));
  const sites = new Set(
    lines.filter((line) => line.outcome === 'wrong_secret').map((line) => line.event.split(' ')[0]!),
  );
  for (const site of [...sites].filter(isAdaptedSiteId)) {
    const command = `/setup listing add site:${site}`;
    fixes.push(
      environmentSites.has(site)
        ? t('setup.delivery.fixSecretEnvironment', {
            site: SITE_FACTS[site].name,
            setting: listingSecretVariable(site),
            command,
          })
        : t('setup.delivery.fixSecret', { site: SITE_FACTS[site].name, command }),
    );
  }
  if (lines.some((line) => line.outcome === 'stale_signature')) fixes.push(t('setup.delivery.fixClock'));
  return fixes;
}
