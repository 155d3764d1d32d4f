import { fail, pass, skip, type Check } from './check.js';
import { headerNames } from './service-probe.js';

const KNOWN_PREFIXES = ['Service', 'Guilds'];
const named = (prefix: string) => headerNames(prefix).join(' and ');

export const serviceCredentialsCheck: Check = {
  name: 'service credentials',
  async run(state) {
    const probe = state.service;
    const votes = probe?.votes;
    if (!probe || !votes || 'error' in votes) return skip('needs the service to answer.');
    const prefix = probe.headerPrefix;
    if (votes.status >= 200 && votes.status < 300) {
      probe.accepted = true;
      return pass(`accepted, sent as ${named(prefix)} (SERVICE_HEADER_PREFIX=${prefix}).`);
    }
    if (votes.status === 401 || votes.status === 403) {
      // One more GET with the other header names tells a wrong prefix from a wrong key.
      for (const other of KNOWN_PREFIXES.filter((p) => p !== prefix)) {
        const retry = await probe.get('/votes', other);
        if (!('error' in retry) && retry.status >= 200 && retry.status < 300)
          return fail(
            `refused as ${named(prefix)} (${votes.status}), accepted as ${named(other)}.`,
            `set SERVICE_HEADER_PREFIX=${other}.`,
          );
      }
      return fail(
        `refused (${votes.status}), sent as ${named(prefix)} (SERVICE_HEADER_PREFIX=${prefix}).`,
        "check SERVICE_API_KEY and SERVICE_APP_ID against the server's dashboard on the listing (a Guilds key lapses after 90 days without use: make a new one there).",
      );
    }
    if (votes.status === 404)
      return fail(
        'GET /votes answered 404: SERVICE_BASE_URL does not lead to the API.',
        "set SERVICE_BASE_URL to the API's base address ending in /v1.",
      );
    return fail(
      `GET /votes answered HTTP ${votes.status}, so the credentials could not be checked.`,
      'try again shortly; if it stays so, the service is failing or SERVICE_BASE_URL points elsewhere.',
    );
  },
};
