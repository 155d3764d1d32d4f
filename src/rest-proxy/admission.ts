/** Why the proxy answered a request itself and forwarded nothing. */
export type RefusalReason = 'path' | 'method' | 'authorization' | 'too_large';

export interface Refusal {
  readonly status: 401 | 404 | 405 | 413;
  readonly reason: RefusalReason;
  /** For the calling bot's error (discord.js shows Discord's `message`); never quotes the request. */
  readonly message: string;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** The proxy's REST client sends to /v10; a caller asking for another version would get v10 silently. */
const API_ROUTE = /^\/api(?:\/v10)?(\/.+)$/;
const OTHER_VERSION = /^\/v\d+(?:\/|$)/;
const BOT_AUTHORIZATION = /^Bot \S+$/;
/**
 * Routes Discord authenticates by the token in their path: an interaction's callback and its
 * webhook (follow-ups, editing the answer). discord.js sends them with no Authorization at all.
 */
const TOKEN_IN_PATH = /^\/(?:interactions\/\d+\/[^/]+\/callback|webhooks\/\d+\/[^/]+(?:\/.*)?)$/;

export const REFUSALS = {
  path: {
    status: 404,
    reason: 'path',
    message:
      'the REST proxy forwards only Discord API v10 paths, /api/v10/… or /api/…: point DISCORD_API_URL at <proxy>/api',
  },
  method: {
    status: 405,
    reason: 'method',
    message: 'the REST proxy forwards only GET, POST, PUT, PATCH and DELETE',
  },
  authorization: {
    status: 401,
    reason: 'authorization',
    message:
      'the REST proxy forwards only requests that carry "Authorization: Bot <token>" (or none, to an interaction\'s own token route)',
  },
  too_large: {
    status: 413,
    reason: 'too_large',
    message: "a body over Discord's 25 MiB request limit; nothing was sent",
  },
} as const satisfies Record<RefusalReason, Refusal>;

/** The route to send upstream (after /api or /api/v10), or undefined for any other path. */
export function routeOf(pathname: string): `/${string}` | undefined {
  const route = API_ROUTE.exec(pathname)?.[1];
  return route === undefined || OTHER_VERSION.test(route) ? undefined : (route as `/${string}`);
}

/**
 * Whether a request may spend the bots' shared budget: a v10 route, a method Discord's API uses,
 * and a bot's token (or no token, on a route whose path holds one). Anything else is refused before
 * its body is read.
 */
export function refusalOf(
  method: string | undefined,
  pathname: string,
  authorization: string | undefined,
): Refusal | undefined {
  if (routeOf(pathname) === undefined) return REFUSALS.path;
  if (method === undefined || !METHODS.has(method)) return REFUSALS.method;
  if (authorization === undefined && TOKEN_IN_PATH.test(routeOf(pathname)!)) return undefined;
  if (authorization === undefined || !BOT_AUTHORIZATION.test(authorization)) return REFUSALS.authorization;
  return undefined;
}

/**
 * Whether Discord counts the request in the bot's global limit: interactions' routes (callbacks,
 * follow-ups) are not bound to it, and only a bot's token is.
 */
export const countsGlobally = (route: string, authorization: string | undefined): boolean =>
  authorization !== undefined && !TOKEN_IN_PATH.test(route);
