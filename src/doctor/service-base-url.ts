import { fail, pass, skip, type Check } from './check.js';
import { ServiceProbe } from './service-probe.js';

/**
 * Without `/v1` every path misses the API, and a 404 on a review lookup reads as "no review":
 * members would be told wrong things rather than shown an error.
 */
export const serviceBaseUrlCheck: Check = {
  name: 'service base URL',
  async run(state) {
    if (!state.config) return skip('needs a valid configuration.');
    const { baseUrl, apiKey, appId } = state.config.service;
    // Many servers: each server's credentials are checked by its own /setup status, not here.
    if (apiKey !== undefined && appId !== undefined)
      state.service = new ServiceProbe({ ...state.config.service, apiKey, appId });
    const url = new URL(baseUrl);
    if (!/\/v1$/.test(url.pathname))
      return fail(
        `${baseUrl} does not end in /v1 (path "${url.pathname}").`,
        `set SERVICE_BASE_URL to the API's v1 base, e.g. ${url.origin}${url.pathname.replace(/\/+$/, '')}/v1.`,
      );
    return pass(`${baseUrl}.`);
  },
};
