import { httpUrl, intInRange, orDefault, port, trimmed } from './fields.js';
import { fromDotenv, readOrThrow } from './load.js';
import { LOG_FIELDS, logSettings, type LogSettings, onTerminal } from './shared-fields.js';

/** `npm run rest-proxy`: @discordjs/proxy in front of Discord, so every bot process shares one global budget. */
export interface RestProxyConfig extends LogSettings {
  readonly port: number;
  readonly host: string;
  /** Where the proxy sends requests: Discord (default) or a stand-in; REST base without /v10. */
  readonly upstream: string;
  readonly requestsPerSecond: number;
}

export const REST_PROXY_FIELDS = {
  REST_PROXY_PORT: orDefault(port, 8080),
  REST_PROXY_HOST: orDefault(trimmed, '127.0.0.1'),
  REST_PROXY_UPSTREAM: orDefault(
    httpUrl("Discord's REST base the proxy forwards to, without /v10; leave empty for Discord"),
    'https://discord.com/api',
  ),
  // Discord's limit is 50 per second per bot. The proxy counts in one-second windows that open at
  // its first request, Discord in its own seconds where requests arrive: two of the proxy's windows
  // can fall in one of Discord's (at 45/s the stand-in, enforcing 50, refused 18), so 25 each.
  REST_PROXY_REQUESTS_PER_SECOND: intInRange(1, 50, 25),
  ...LOG_FIELDS,
};

export function parseRestProxyConfig(env: NodeJS.ProcessEnv, terminal = onTerminal()): RestProxyConfig {
  const e = readOrThrow(REST_PROXY_FIELDS, env);
  return Object.freeze({
    port: e.REST_PROXY_PORT,
    host: e.REST_PROXY_HOST,
    upstream: e.REST_PROXY_UPSTREAM,
    requestsPerSecond: e.REST_PROXY_REQUESTS_PER_SECOND,
    ...logSettings(e, terminal),
  });
}

export const loadRestProxyConfig = fromDotenv(parseRestProxyConfig);
