import { describe, expect, it } from '@jest/globals';
import { parseConfig } from '../../../src/config/bot.js';
import { doctorRest } from '../../../src/doctor/discord-api.js';
import { VALID_ENV } from '../../support/config-env.js';

/** The address discord.js's REST sends a route to: its base, then /v<version>, then the route. */
const routeUrl = (rest: ReturnType<typeof doctorRest>, route: string) =>
  `${rest.options.api}/v${rest.options.version}${route}`;

describe("the doctor's Discord client", () => {
  it('asks Discord itself at /api/v10 when DISCORD_API_URL is unset (the version once, not twice)', () => {
    const rest = doctorRest(parseConfig(VALID_ENV));
    expect(routeUrl(rest, '/users/@me')).toBe('https://discord.com/api/v10/users/@me');
  });

  it('asks DISCORD_API_URL when it is set', () => {
    const rest = doctorRest(parseConfig({ ...VALID_ENV, DISCORD_API_URL: 'http://127.0.0.1:4000/api' }));
    expect(routeUrl(rest, '/users/@me')).toBe('http://127.0.0.1:4000/api/v10/users/@me');
  });
});
