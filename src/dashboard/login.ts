import oauth2, { type OAuth2Namespace } from '@fastify/oauth2';
import type { FastifyInstance } from 'fastify';
import { CLIENT_SECRET_FIX, oauthTokenUrl, redirectUri } from '../config/dashboard.js';
import { DISCORD_API } from '../config/shared-fields.js';
import type { DashboardDeps } from './deps.js';
import { DiscordUnavailable, readMember } from './discord-member.js';
import { problemPage } from './errors.js';
import { FLOOD_BOUND, TokenBuckets } from '../core/token-buckets.js';
import { safeReturnPath } from './return-to.js';
import type { Sessions } from './session.js';

declare module 'fastify' {
  interface FastifyInstance {
    discordOAuth2: OAuth2Namespace;
  }
}

/** More servers than this a member manages are not all kept: the sealed cookie must stay under 4 KB. */
const MAX_GUILDS_KEPT = 100;
/**
 * Requests to /login and /callback per address (a sign-in is one of each): a burst of 60, then 30 a
 * minute. Enough for an office behind one address; a script hammering the consent flow is stopped.
 */
export const SIGN_INS = { capacity: 60, perMinute: 30 };

/**
 * Signing in with Discord (OAuth2's authorization code flow through @fastify/oauth2): /login sends
 * the browser to the consent page with a state kept in the sealed session, /callback checks it,
 * trades the code at DISCORD_API_URL and keeps who the member is and which servers they may set up.
 */
export async function loginRoutes(app: FastifyInstance, deps: DashboardDeps, sessions: Sessions): Promise<void> {
  await registerDiscordOAuth(app, deps, sessions);
  const limited = signInLimit(deps);

  app.get('/login', async (request, reply) => {
    if (await limited(request, reply)) return reply;
    sessions.setReturnTo(request, safeReturnPath((request.query as { next?: unknown }).next));
    return reply.redirect(await app.discordOAuth2.generateAuthorizationUri(request, reply));
  });

  app.get('/callback', async (request, reply) => {
    if (await limited(request, reply)) return reply;
    const query = request.query as { error?: unknown; code?: unknown };
    if (query.error !== undefined) {
      sessions.takeState(request);
      return problemPage(request, reply, 400, 'dashboard.error.denied');
    }
    let accessToken: string;
    try {
      if (typeof query.code !== 'string') throw new Error('Invalid state');
      const { token: got } = await app.discordOAuth2.getAccessTokenFromAuthorizationCodeFlow(request, reply);
      accessToken = got.access_token;
    } catch (error) {
      return tradeFailed(request, reply, error, deps.logger);
    }
    return signIn(request, reply, accessToken, deps, sessions);
  });

  app.post('/logout', async (request, reply) => {
    try {
      await sessions.end(request);
    } catch (error) {
      // Signed out here and the cookie is gone; only a kept copy could open a page on another process
      // until the sign-out is written, which the next read of sign-outs tries again.
      deps.logger.warn({ err: error }, 'dashboard sign-out not stored yet; written with the next read of sign-outs');
    }
    return problemPage(request, reply, 200, 'dashboard.loggedOut');
  });
}

type Request = Parameters<typeof problemPage>[0];
type Reply = Parameters<typeof problemPage>[1];

/** @fastify/oauth2 with Discord's authorize and token addresses, its state kept in the sealed session. */
async function registerDiscordOAuth(app: FastifyInstance, deps: DashboardDeps, sessions: Sessions): Promise<void> {
  const { settings } = deps;
  const token = new URL(oauthTokenUrl(deps.apiUrl));
  const authorize = new URL(settings.authorizeUrl);
  await app.register(oauth2, {
    name: 'discordOAuth2',
    scope: ['identify', 'guilds'],
    credentials: {
      client: { id: deps.clientId, secret: settings.clientSecret },
      auth: {
        authorizeHost: authorize.origin,
        authorizePath: authorize.pathname,
        tokenHost: token.origin,
        tokenPath: token.pathname,
      },
    },
    callbackUri: redirectUri(settings.publicUrl),
    // The state lives in the sealed session, so it is this browser's and cannot be planted beside.
    generateStateFunction: (request) => sessions.newState(request),
    checkStateFunction: (request) => {
      const kept = sessions.takeState(request);
      const sent = (request.query as { state?: unknown }).state;
      return kept !== undefined && typeof sent === 'string' && sent === kept;
    },
    cookie: { secure: settings.secure, sameSite: 'lax', httpOnly: true, path: '/' },
  });
}

/** Answers with 429 (and true) when the address used up its sign-ins. */
function signInLimit(deps: DashboardDeps): (request: Request, reply: Reply) => Promise<boolean> {
  const signIns = new TokenBuckets(SIGN_INS, FLOOD_BOUND, deps.now);
  return async (request, reply) => {
    const wait = signIns.take(request.ip).retryAfterSeconds;
    if (wait === 0) return false;
    reply.header('retry-after', String(wait));
    await problemPage(request, reply, 429, 'dashboard.error.tooMany', { seconds: wait });
    return true;
  };
}

/** The code could not be traded: a state that did not match, a refused client secret or code, or Discord. */
function tradeFailed(request: Request, reply: Reply, error: unknown, logger: DashboardDeps['logger']) {
  const message = (error as Error).message;
  if (message === 'Invalid state') {
    logger.info({ ip: request.ip }, 'dashboard sign-in refused: the state did not match');
    return problemPage(request, reply, 403, 'dashboard.error.state');
  }
  // Never the secret in the line: Discord's status and OAuth2 error code say which it was.
  const refusal = tradeRefusal(error);
  if (refusal.error === 'invalid_client' || refusal.status === 401) {
    logger.error(
      { status: refusal.status, error: refusal.error },
      `dashboard sign-in: Discord refused DISCORD_CLIENT_SECRET, so nobody can sign in; ${CLIENT_SECRET_FIX}`,
    );
    return problemPage(request, reply, 500, 'dashboard.error.clientSecret');
  }
  if (refusal.error === 'invalid_grant') {
    logger.info({ status: refusal.status }, 'dashboard sign-in: the code was used already or too old');
    return problemPage(request, reply, 400, 'dashboard.error.code');
  }
  logger.warn({ err: { message }, ...refusal }, 'dashboard sign-in: the code could not be traded');
  return problemPage(request, reply, 502, 'dashboard.error.discord');
}

/** Who the member is and which servers the bot serves among theirs, kept in the session; then back where they were. */
async function signIn(request: Request, reply: Reply, accessToken: string, deps: DashboardDeps, sessions: Sessions) {
  try {
    const found = await readMember(deps.apiUrl ?? DISCORD_API, accessToken);
    const kept: string[] = [];
    for (const guildId of found.guildIds) {
      if (kept.length >= MAX_GUILDS_KEPT) break;
      if (await deps.view.guild(guildId)) kept.push(guildId);
    }
    const returnTo = safeReturnPath(sessions.takeReturnTo(request));
    const member = sessions.begin(request, { ...found, guildIds: kept });
    deps.logger.info({ userId: member.id, servers: kept.length }, 'dashboard sign-in');
    return reply.redirect(returnTo);
  } catch (error) {
    if (!(error instanceof DiscordUnavailable)) throw error;
    deps.logger.warn({ status: error.status }, "dashboard sign-in: Discord did not answer the member's reads");
    return problemPage(request, reply, 502, 'dashboard.error.discord');
  }
}

/** Discord's answer to a refused code trade (simple-oauth2's error carries its status and body). */
function tradeRefusal(error: unknown): { status?: number; error?: string } {
  const boom = error as { output?: { statusCode?: unknown }; data?: { payload?: unknown } };
  const status = typeof boom.output?.statusCode === 'number' ? boom.output.statusCode : undefined;
  const payload = boom.data?.payload as { error?: unknown } | undefined;
  const code = typeof payload?.error === 'string' ? payload.error : undefined;
  return { ...(status === undefined ? {} : { status }), ...(code === undefined ? {} : { error: code }) };
}
