import type { ButtonHandler } from '../runtime/context.js';
import { Prefix } from '../core/custom-id.js';
import { isAdaptedSiteId, type AdaptedSiteId } from '../lists/index.js';
import { openListingSecret } from '../setup/listing-secret.js';

/** "Paste the secret" under `/setup listing add` for a list that makes its own secret (Top.gg). */
export const setupListing: ButtonHandler<AdaptedSiteId> = {
  kind: 'button',
  prefix: Prefix.setupListing,
  anyServer: true,
  gate: 'manageServer',
  parse: (arg) => (isAdaptedSiteId(arg) ? arg : null),
  async run(interaction, site, ctx) {
    await openListingSecret(interaction, site, ctx);
  },
};
