import type { Translator } from '../i18n/index.js';
import type { BaseContext } from '../runtime/context.js';
import { INTERACTION_STORE_MS, storeWithin } from '../store/within.js';
import { forwardHealthy, forwardResultText } from '../views/forward.js';
import type { StatusLine } from '../views/setup-status.js';

/**
 * `/setup status` and the dashboard: each forwarding destination's last result, ✘ with the fix while
 * its sends fail (a long-failing destination shows since when). A slow store leaves these lines out.
 */
export async function forwardLines(guildId: string, ctx: BaseContext, i18n: Translator): Promise<StatusLine[]> {
  const { t } = i18n;
  const destinations = await storeWithin(ctx.servers.forwards.of(guildId), INTERACTION_STORE_MS).catch(() => []);
  return destinations.map((destination): StatusLine => {
    const label = t('setup.status.forward', { url: destination.url });
    const detail = forwardResultText(destination, i18n);
    if (forwardHealthy(destination)) return { ok: true, label, detail };
    return { ok: false, label, detail, fix: t('setup.status.fixForward', { command: '`/setup forward test`' }) };
  });
}
