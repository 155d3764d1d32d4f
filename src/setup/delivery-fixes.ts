import { isAdaptedSiteId, listingSecretVariable, SITE_FACTS } from '../lists/index.js';
import type { Translator } from '../i18n/index.js';
import type { DeliveryRecord } from '../store/index.js';

/**
 * How to mend what the log shows refused, one line per cause: a wrong Guilds token (fixed with
 * `fixTokenWith`), and per list a secret or signature that does not match (pasted again with
 * /setup listing add, or LISTING_<SITE>_SECRET set right when the list is one of `environmentSites`).
 */
export function deliveryFixes(
  lines: readonly DeliveryRecord[] | 'unreadable',
  { t }: Translator,
  fixTokenWith: string,
  environmentSites: ReadonlySet<string>,
): string[] {
  const fixes: string[] = [];
  if (lines === 'unreadable') return fixes;
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
