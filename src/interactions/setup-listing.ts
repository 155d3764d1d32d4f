import type { ButtonHandler } from '../runtime/context.js';
import { Prefix } from '../core/custom-id.js';
import { isAdaptedSiteId, type AdaptedSiteId } from '../lists/index.js';
import { openListingSecret } from '../setup/listing-secret.js';

/** What both steps of pasting a list's secret check: Manage Server, again on each, and a known list as the arg. */
export const listingSiteStep = {
  anyServer: true,
  gate: 'manageServer',
  parse: (arg: string) => (isAdaptedSiteId(arg) ? arg : null),
} as const;

/** "Paste the secret" under `/setup listing add` for a list that makes its own secret (Top.gg). */
export const setupListing: ButtonHandler<AdaptedSiteId> = {
  kind: 'button',
  prefix: Prefix.setupListing,
  ...listingSiteStep,
  run: (interaction, site, ctx) => openListingSecret(interaction, site, ctx),
};
