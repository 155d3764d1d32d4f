import type { Actor } from '../bot/actor.js';
import { UserFacingError } from '../bot/user-error.js';
import { isApiToken } from '../core/listing-secret.js';
import { SITE_FACTS, VOTE_API_SITE, type AdaptedSiteId } from '../lists/index.js';
import type { BaseContext } from '../runtime/context.js';
import { lastFour } from '../secrets/secret-box.js';
import { changed, changeResult, type ChangeTarget } from './change.js';
import { single, state, TOPGG_API_TOKEN_VARIABLE } from './listing-facts.js';
import { sealing } from './manage-server.js';

/**
 * `/setup listing add site:topgg api-token:` (and the dashboard's form): the token with which the bot
 * reads back the Top.gg votes its webhook missed while it was down (runtime/topgg-recovery.ts).
 * Only Top.gg's listing takes one, and only once it is there; a token of the wrong shape, or one the
 * host sets, is refused and nothing changes. Sealed like the listing's secret; shown by its end only.
 */
export async function applyListingApiToken(
  ctx: BaseContext,
  target: ChangeTarget,
  site: AdaptedSiteId,
  token: string,
  actor: Actor,
): Promise<void> {
  const { guildId } = target;
  if (site !== VOTE_API_SITE) throw new UserFacingError('refusal.apiTokenTopggOnly', { site: SITE_FACTS[site].name });
  if (single(ctx)) throw new UserFacingError('refusal.setByEnvironment', { variable: TOPGG_API_TOKEN_VARIABLE });
  const trimmed = token.trim();
  if (!isApiToken(trimmed)) throw new UserFacingError('refusal.apiTokenShape');
  if (state(ctx, guildId, site) === undefined)
    throw new UserFacingError('refusal.apiTokenNoListing', { command: '`/setup listing add site:topgg`' });
  if (!ctx.config.secrets) throw new UserFacingError('refusal.secretsKeyMissing');
  await sealing(() => ctx.setup.changes.listings.setApiToken(guildId, site, trimmed));
  // Logged and audited by its end only.
  ctx.logger.info({ guildId, userId: actor.userId, site }, 'listing API token set with /setup');
  const vars = { site: SITE_FACTS[site].name, last4: lastFour(trimmed) };
  await changed(
    ctx,
    target,
    actor,
    changeResult('setup.listing.apiTokenSaved', () => vars),
  );
}
