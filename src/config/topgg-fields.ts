// Top.gg's API, read for the votes its webhook could not deliver while the bot was down
// (docs/lists.md, "Votes missed while down"): where it is, and single-server mode's project token.
import { isApiToken } from '../core/listing-secret.js';
import { checked, httpUrl, optional, orDefault, type Values } from './fields.js';

const TOPGG_API = 'https://top.gg/api';

export const TOPGG_FIELDS = {
  TOPGG_API_URL: orDefault(httpUrl("Top.gg's API base without /v1 (leave empty for https://top.gg/api)"), TOPGG_API),
  LISTING_TOPGG_API_TOKEN: optional(
    checked((value) =>
      isApiToken(value)
        ? undefined
        : "must be one word of 16 to 2048 characters: the server's API token (Top.gg → the server's dashboard → Integrations & API)",
    ),
  ),
};

export interface TopggSettings {
  /** Without /v1 or a trailing slash. */
  readonly apiUrl: string;
  /** Single-server mode's Top.gg project token; many servers set theirs with /setup listing. */
  readonly apiToken: string | undefined;
}

export const topggSettings = (e: Values<typeof TOPGG_FIELDS>): TopggSettings => ({
  apiUrl: e.TOPGG_API_URL.replace(/\/+$/, ''),
  apiToken: e.LISTING_TOPGG_API_TOKEN,
});
