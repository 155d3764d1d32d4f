import type { ModalHandler } from '../runtime/context.js';
import { Prefix } from '../core/custom-id.js';
import { isAdaptedSiteId, type AdaptedSiteId } from '../lists/index.js';
import { saveListingSecret } from '../setup/listing-secret.js';

/** The list's secret sent back: Manage Server checked again, as a submit can be forged. */
export const setupListingSecret: ModalHandler<AdaptedSiteId> = {
  kind: 'modal',
  prefix: Prefix.setupListingSecret,
  anyServer: true,
  gate: 'manageServer',
  parse: (arg) => (isAdaptedSiteId(arg) ? arg : null),
  async run(interaction, site, ctx) {
    await saveListingSecret(interaction, site, ctx);
  },
};
