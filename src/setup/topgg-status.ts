import type { Translator } from '../i18n/index.js';
import { VOTE_API_SITE } from '../lists/index.js';
import type { BaseContext } from '../runtime/context.js';
import { relativeTime } from '../views/format.js';
import type { StatusLine } from '../views/setup-status.js';

/**
 * `/setup status`'s line for the reads of Top.gg votes missed while down, when Top.gg's listing has
 * an API token: a token Top.gg refused (parked until a new one is set, with the fix), a 429's block
 * (it ends by itself), or fine. No token, no line: the listing's own line says what is there.
 */
export async function topggReadsLine(
  guildId: string,
  ctx: BaseContext,
  { t }: Translator,
): Promise<StatusLine | undefined> {
  const listing = ctx.servers.listings.of(guildId).find((l) => l.site === VOTE_API_SITE);
  if (!listing?.apiToken) return undefined;
  const label = t('setup.status.topggReads');
  const stops = await ctx.setup.topggReads(guildId);
  if (stops?.parked) {
    const { status, at } = stops.parked;
    const detail = t('setup.status.topggRefused', { status, when: relativeTime(new Date(at)) });
    const fix = t('setup.status.fixTopggToken', { command: '`/setup listing add site:topgg api-token:`' });
    return { ok: false, label, detail, fix };
  }
  if (stops?.blockedUntil !== undefined && stops.blockedUntil > ctx.now().getTime())
    return {
      ok: true,
      label,
      detail: t('setup.status.topggBlocked', { when: relativeTime(new Date(stops.blockedUntil)) }),
    };
  return { ok: true, label, detail: t('setup.status.topggReadsOk') };
}
