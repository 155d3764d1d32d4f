import formbody from '@fastify/formbody';
import secureSession from '@fastify/secure-session';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  DASHBOARD_CONNECTIONS_CHECK_MS,
  DASHBOARD_HEADERS_TIMEOUT_MS,
  DASHBOARD_KEEP_ALIVE_MS,
  DASHBOARD_REQUEST_TIMEOUT_MS,
} from '../config/dashboard-limits.js';
import { guardChanges, mayChangeWith } from './access.js';
import { checkCsrf } from './csrf.js';
import type { DashboardDeps } from './deps.js';
import { problemPage } from './errors.js';
import { isChange } from './form-body.js';
import { loginRoutes } from './login.js';
import { FLOOD_BOUND, TokenBuckets } from '../core/token-buckets.js';
import { securityHeaders } from './security-headers.js';
import { SESSION_MS, SIGN_OUTS_READ_MS, Sessions, signOutsReader } from './session.js';
import { pageRoutes } from './routes/index.js';
import { staticFiles } from './static-files.js';

/** Changes per member (or address): a burst of 20, then 20 a minute. */
const CHANGES = { capacity: 20, perMinute: 20 };
/**
 * The live preview asks as the member types (once a pause, preview-script.ts): a budget of its own,
 * so typing never spends the saves', and wide enough for a long template typed at any pace.
 */
const PREVIEWS = { capacity: 120, perMinute: 120 };

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether the bot sees the member with Manage Server in the server now: every change asks it. */
    mayChange(guildId: string, userId: string): Promise<boolean>;
  }
  interface FastifyContextConfig {
    /** A preview: it changes nothing and is counted apart from changes. */
    preview?: boolean;
    /** A form that, refused for too many changes, shows itself again with what was typed (its route checks `changesWait`). */
    keepsTyped?: boolean;
  }
  interface FastifyRequest {
    /** Seconds until this member may change something again; 0: the change may go ahead. */
    changesWait: number;
  }
}

/**
 * The web dashboard as a fastify app, not yet listening: sign-in with Discord, a sealed session
 * cookie, the form token and the change guard on every change, the security headers on every answer.
 */
export async function dashboardApp(deps: DashboardDeps): Promise<FastifyInstance> {
  const now = deps.now ?? Date.now;
  const { settings, logger } = deps;
  const app = Fastify({
    logger: false,
    // Only the configured hop may name the visitor: `true` let anyone choose the rate limits' key.
    trustProxy: [...settings.trustedProxies],
    // A request slower than these gets 408 and its socket closed (Fastify's defaults held one for ever).
    requestTimeout: DASHBOARD_REQUEST_TIMEOUT_MS,
    keepAliveTimeout: DASHBOARD_KEEP_ALIVE_MS,
    http: {
      headersTimeout: DASHBOARD_HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: DASHBOARD_CONNECTIONS_CHECK_MS,
    },
  });
  const sessions = new Sessions(now, deps.signOuts);
  await sessions.readSignOuts();
  const readSignOuts = signOutsReader(sessions, logger);
  const reading = setInterval(() => void readSignOuts(), deps.signOutsReadMs ?? SIGN_OUTS_READ_MS);
  reading.unref();
  const mayChange = mayChangeWith(deps.view);
  app.decorate('mayChange', mayChange);
  securityHeaders(app);
  await app.register(secureSession, {
    key: [...settings.sessionKeys],
    cookieName: 'dashboard',
    expiry: SESSION_MS / 1000,
    cookie: { path: '/', httpOnly: true, sameSite: 'lax', secure: settings.secure },
  });
  await app.register(formbody, { bodyLimit: 64 * 1024 });

  const changes = new TokenBuckets(CHANGES, FLOOD_BOUND, now);
  const previews = new TokenBuckets(PREVIEWS, FLOOD_BOUND, now);
  app.decorateRequest('changesWait', 0);
  app.addHook('preHandler', async (request, reply) => {
    if (!isChange(request)) return;
    const { preview, keepsTyped } = request.routeOptions.config;
    const wait = (preview ? previews : changes).take(sessions.member(request)?.id ?? request.ip).retryAfterSeconds;
    if (wait === 0) return;
    reply.header('retry-after', String(wait));
    if (keepsTyped) {
      request.changesWait = wait;
      return;
    }
    return problemPage(request, reply, 429, 'dashboard.error.tooMany', { seconds: wait });
  });
  app.addHook(
    'preHandler',
    checkCsrf(sessions, (request, reply) => problemPage(request, reply, 403, 'dashboard.error.csrf')),
  );
  app.addHook('preHandler', guardChanges(sessions, deps.view, mayChange));

  app.addHook('onClose', async () => clearInterval(reading));
  staticFiles(app);
  await loginRoutes(app, deps, sessions);
  pageRoutes(app, deps, sessions);

  app.setNotFoundHandler((request, reply) => problemPage(request, reply, 404, 'dashboard.error.notFound'));
  app.setErrorHandler((error, request, reply) => {
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 400 && status < 500)
      return problemPage(
        request,
        reply,
        status,
        status === 429 ? 'dashboard.error.tooMany' : 'dashboard.error.notFound',
      );
    logger.error({ err: error, url: request.url.split('?')[0] }, 'dashboard page failed');
    return problemPage(request, reply, 500, 'dashboard.error.internal');
  });
  return app;
}
