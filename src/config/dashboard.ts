// The web dashboard's settings (docs/dashboard.md): off unless DASHBOARD_PORT is set, and then it
// needs the address members reach it at, the application's OAuth2 secret and a key for its cookies.
import { isIP } from 'node:net';
import { type Check, fail, field, httpUrl, ok, optional, port, trimmed, type Values, wholeNumber } from './fields.js';
import { DISCORD_API, listenHost, secretKeyText } from './shared-fields.js';
import { secretKey } from '../secrets/secret-box.js';

const DEFAULT_AUTHORIZE_URL = 'https://discord.com/oauth2/authorize';

/** Loopback: a reverse proxy on this machine, as the docs set it up. */
const LOOPBACK = ['127.0.0.0/8', '::1'];

/** An address or a CIDR range (proxy-addr's forms); a /0 would let every visitor name its own address. */
function proxyProblem(item: string): boolean {
  const [address = '', prefix, extra] = item.split('/');
  const kind = isIP(address);
  if (kind === 0 || address.includes('%') || extra !== undefined) return true;
  if (prefix === undefined) return false;
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : Number.NaN;
  return !(bits >= 1 && bits <= (kind === 4 ? 32 : 128));
}

const PROXIES_HINT =
  "must be the reverse proxy's addresses or ranges, separated by commas, such as 127.0.0.1 or 10.0.0.0/8 (not /0: every visitor could then name its own address)";

const proxyList: Check<string[]> = (text) => {
  const items = text.split(',').map((item) => item.trim());
  const problems = items.flatMap((item, at) => (proxyProblem(item) ? [{ at, message: PROXIES_HINT }] : []));
  return problems.length === 0 ? ok(items) : { ok: false, problems };
};

/** Where the dashboard is reached: no query or fragment, since the callback path is appended. */
const publicUrl = httpUrl(
  'the address members open the dashboard at, such as https://bot.example.com (no path, query or #)',
);

/** What to do when Discord refuses DISCORD_CLIENT_SECRET: the doctor's fix and the sign-in's log line. */
export const CLIENT_SECRET_FIX =
  'Developer Portal → your application → OAuth2 → Client Secret → Reset Secret, then put the new secret in DISCORD_CLIENT_SECRET.';

export const DASHBOARD_FIELDS = {
  DASHBOARD_PORT: optional(port),
  DASHBOARD_HOST: listenHost(
    '127.0.0.1 (this machine only, behind a reverse proxy; the default), or 0.0.0.0 / :: (every interface)',
  ),
  DASHBOARD_PUBLIC_URL: optional((text) => {
    const read = publicUrl(text);
    if (!read.ok) return read;
    const url = new URL(read.value);
    if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '')
      return publicUrl('not a url');
    // The dashboard answers at / and Discord returns members to /callback: under a path every link
    // and the sign-in's return would miss it (members ended on "Page not found").
    const path = url.pathname.replace(/\/+$/, '');
    if (path !== '')
      return fail(
        `has the path ${path}, but the dashboard answers at / of its own address: use ${url.origin} (a host or subdomain of its own, such as https://dashboard.example.com)`,
      );
    return { ok: true, value: read.value.replace(/\/+$/, '') };
  }),
  DISCORD_CLIENT_SECRET: optional(trimmed),
  SESSION_KEY: optional(secretKeyText('SESSION_KEY')),
  SESSION_KEY_PREVIOUS: optional(secretKeyText('SESSION_KEY_PREVIOUS')),
  DISCORD_OAUTH_AUTHORIZE_URL: optional(
    httpUrl("Discord's consent page; leave empty for https://discord.com/oauth2/authorize"),
  ),
  // Empty: a quarter of the open-file limit, read at start (dashboardConnectionCap).
  DASHBOARD_MAX_CONNECTIONS: optional(wholeNumber(1, 100_000)),
  // Parsed per read, not shared: deepFreeze freezes what each config holds.
  DASHBOARD_TRUSTED_PROXIES: field(proxyList, () => ok([...LOOPBACK])),
};

export interface DashboardSettings {
  readonly port: number;
  readonly host: string;
  /** Without a trailing slash; the OAuth2 redirect URI is under it (redirectUri). */
  readonly publicUrl: string;
  readonly clientSecret: string;
  /** SESSION_KEY first (it seals), then SESSION_KEY_PREVIOUS while rotating (it still opens). */
  readonly sessionKeys: readonly Buffer[];
  readonly authorizeUrl: string;
  /** Cookies are Secure: the public address is https. */
  readonly secure: boolean;
  /**
   * The reverse proxy's addresses: a hop from one of these may say whom it forwards (X-Forwarded-For);
   * the first hop from anywhere else is the visitor, whose address the rate limits count.
   */
  readonly trustedProxies: readonly string[];
  /** DASHBOARD_MAX_CONNECTIONS; undefined: from the open-file limit at start (dashboardConnectionCap). */
  readonly maxConnections: number | undefined;
}

/** What Discord sends the browser back to after consent: register exactly this in the Developer Portal. */
export function redirectUri(publicUrl: string): string {
  return `${publicUrl}/callback`;
}

/** Where the application trades a code (or its own id and secret) for a token; `apiUrl` is DISCORD_API_URL. */
export function oauthTokenUrl(apiUrl: string | undefined): string {
  return `${apiUrl ?? DISCORD_API}/v10/oauth2/token`;
}

type Settings = Partial<Values<typeof DASHBOARD_FIELDS>>;

/** What DASHBOARD_PORT needs besides itself, each line naming the missing setting. */
export function dashboardProblems(e: Settings, otherPorts: Readonly<Record<string, number | undefined>>): string[] {
  const problems: string[] = [];
  if (e.SESSION_KEY_PREVIOUS !== undefined && e.SESSION_KEY === undefined)
    problems.push(
      'SESSION_KEY_PREVIOUS is set without SESSION_KEY: the previous key only opens cookies it sealed while a new one seals',
    );
  if (e.DASHBOARD_PORT === undefined) return problems;
  const why = 'DASHBOARD_PORT is set, so the dashboard';
  if (e.DASHBOARD_PUBLIC_URL === undefined)
    problems.push(
      `DASHBOARD_PUBLIC_URL is missing: ${why} needs the address members open it at (the redirect URI is that address + /callback)`,
    );
  if (e.DISCORD_CLIENT_SECRET === undefined)
    problems.push(
      `DISCORD_CLIENT_SECRET is missing: ${why} signs members in with Discord (Developer Portal → OAuth2 → Client Secret)`,
    );
  if (e.SESSION_KEY === undefined)
    problems.push(`SESSION_KEY is missing: ${why} seals its cookies with it; make one with: openssl rand -base64 32`);
  for (const [name, other] of Object.entries(otherPorts))
    if (other !== undefined && other === e.DASHBOARD_PORT)
      problems.push(`DASHBOARD_PORT must differ from ${name} (${other}): the dashboard gets a port of its own`);
  return problems;
}

/** The dashboard's settings; undefined (off) unless DASHBOARD_PORT and what it needs are set. */
export function dashboardSettings(e: Values<typeof DASHBOARD_FIELDS>): DashboardSettings | undefined {
  const { DASHBOARD_PORT, DASHBOARD_PUBLIC_URL, DISCORD_CLIENT_SECRET, SESSION_KEY } = e;
  if (DASHBOARD_PORT === undefined || !DASHBOARD_PUBLIC_URL || !DISCORD_CLIENT_SECRET || !SESSION_KEY) return undefined;
  const previous = e.SESSION_KEY_PREVIOUS;
  return {
    port: DASHBOARD_PORT,
    host: e.DASHBOARD_HOST,
    publicUrl: DASHBOARD_PUBLIC_URL,
    clientSecret: DISCORD_CLIENT_SECRET,
    sessionKeys: [
      secretKey(SESSION_KEY, 'SESSION_KEY').key,
      ...(previous === undefined ? [] : [secretKey(previous, 'SESSION_KEY_PREVIOUS').key]),
    ],
    authorizeUrl: e.DISCORD_OAUTH_AUTHORIZE_URL ?? DEFAULT_AUTHORIZE_URL,
    secure: DASHBOARD_PUBLIC_URL.startsWith('https:'),
    trustedProxies: e.DASHBOARD_TRUSTED_PROXIES,
    maxConnections: e.DASHBOARD_MAX_CONNECTIONS,
  };
}

/** The values a log line must never show: the OAuth2 secret and the cookie keys as written. */
export function dashboardSecretTexts(dashboard: DashboardSettings | undefined): string[] {
  if (!dashboard) return [];
  return [dashboard.clientSecret, ...dashboard.sessionKeys.map((key) => key.toString('base64'))];
}
