import { defaultHeaderPrefix } from '../api/index.js';
import { fail, pass, skip, type Check } from './check.js';

/** The real service (Guilds) sends these on every response; the spec promises none. */
const isGuildsHost = (baseUrl: string) => defaultHeaderPrefix(baseUrl) === 'Guilds';

export const serviceRateLimitCheck: Check = {
  name: 'rate-limit headers',
  async run(state) {
    const probe = state.service;
    if (!probe?.accepted) return skip('needs accepted credentials.');
    const seen = probe.answers.find((answer) => answer.headers.has('x-ratelimit-limit'));
    if (seen) {
      const h = (name: string) => seen.headers.get(name) ?? '?';
      return pass(
        `seen: limit ${h('x-ratelimit-limit')} per window, ${h('x-ratelimit-remaining')} left, resets in ${h('x-ratelimit-reset')} s.`,
      );
    }
    if (isGuildsHost(probe.baseUrl))
      return fail(
        `none seen in ${probe.answers.length} answers, though Guilds sends x-ratelimit-* on every response.`,
        'check that SERVICE_BASE_URL is the API address from docs.guilds.me and not a proxy that strips headers.',
      );
    return pass(`none sent (the spec promises none); the bot still honours 429 with Retry-After.`);
  },
};
