import { fail, pass, skip, type Check } from './check.js';

export const serviceReachableCheck: Check = {
  name: 'service reachable',
  async run(state) {
    const probe = state.service;
    if (!probe)
      return skip(
        state.config && state.config.discord.guildId === undefined
          ? "many servers: each server's credentials are checked by its /setup status."
          : 'needs a valid configuration.',
      );
    const votes = await probe.get('/votes');
    probe.votes = votes;
    const origin = new URL(probe.baseUrl).origin;
    if ('error' in votes)
      return fail(
        `GET /votes at ${origin} got no answer (${votes.error}).`,
        'check SERVICE_BASE_URL, the network, and that the service is up.',
      );
    return pass(`${origin} answered GET /votes with HTTP ${votes.status} in ${votes.ms} ms.`);
  },
};
