import { CLIENT_SECRET_FIX, oauthTokenUrl, redirectUri } from '../config/dashboard.js';
import { fail, pass } from './check.js';
import { PLAIN_HTTP_FIX, plainHttpElsewhere } from './plain-http.js';
import { askWithClientSecret } from './client-secret.js';
import { UNREACHABLE_FIX } from './discord-api.js';
import { listenerCheck } from './port-check.js';

/**
 * The web dashboard's settings: its port free or the running bot's, the redirect URI to register
 * (the one the sign-in sends), whether its cookies can be Secure, and whether Discord accepts
 * DISCORD_CLIENT_SECRET (without it no member can sign in, and nothing else would say so before one tries).
 */
export const dashboardCheck = listenerCheck({
  what: 'dashboard',
  setting: 'DASHBOARD_PORT',
  settings: (config) => config.dashboard,
  off: 'not set; the web dashboard is off.',
  host: (dashboard) => dashboard.host,
  async then(dashboard, listening, config) {
    const found = `${listening}; members open ${dashboard.publicUrl}; the redirect URI to register (Developer Portal → OAuth2 → Redirects) is ${redirectUri(dashboard.publicUrl)}`;
    const clear = plainHttpElsewhere(dashboard.publicUrl);
    if (clear !== undefined)
      return fail(
        `${found}; but that address is plain http on ${clear}, so a member's session cookie travels in clear and cannot be Secure.`,
        PLAIN_HTTP_FIX('DASHBOARD_PUBLIC_URL', 'docs/dashboard.md'),
      );
    const tokenUrl = oauthTokenUrl(config.discord.apiUrl);
    const answer = await askWithClientSecret(tokenUrl, config.discord.clientId, dashboard.clientSecret);
    switch (answer.kind) {
      case 'accepted':
        return pass(`${found}; Discord accepts DISCORD_CLIENT_SECRET.`);
      case 'refused':
        return fail(
          `${found}; Discord refused DISCORD_CLIENT_SECRET for application ${config.discord.clientId} (HTTP ${answer.status}${answer.error ? ` ${answer.error}` : ''}), so no member can sign in.`,
          CLIENT_SECRET_FIX,
        );
      case 'unreachable':
        return fail(
          `${found}; Discord could not be reached at ${tokenUrl} (${answer.cause}), so DISCORD_CLIENT_SECRET is not checked.`,
          UNREACHABLE_FIX,
        );
      case 'unexpected':
        return fail(
          `${found}; Discord answered HTTP ${answer.status}${answer.error ? ` ${answer.error}` : ''} at ${tokenUrl}, so DISCORD_CLIENT_SECRET is not checked.`,
          'run the doctor again in a minute; if the answer stays, check DISCORD_API_URL (leave it empty for Discord itself).',
        );
    }
  },
});
