import { afterEach, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { dashboardApp } from '../../src/dashboard/app.js';
import type { DashboardDeps } from '../../src/dashboard/deps.js';
import { createLogger } from '../../src/core/log.js';
import type { BaseContext } from '../../src/runtime/context.js';

const OLD = Buffer.alloc(32, 1);
const NEW = Buffer.alloc(32, 2);
const apps: FastifyInstance[] = [];

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** The dashboard with these cookie keys (the first seals), listening on a free loopback port. */
async function dashboard(keys: Buffer[]): Promise<{ app: FastifyInstance; url: string }> {
  const deps: DashboardDeps = {
    settings: {
      port: 0,
      host: '127.0.0.1',
      publicUrl: 'http://127.0.0.1',
      clientSecret: 'client-secret',
      sessionKeys: keys,
      authorizeUrl: 'http://127.0.0.1:9/oauth2/authorize',
      secure: false,
    },
    clientId: '110000000000000001',
    apiUrl: 'http://127.0.0.1:9/api',
    // The servers list of a member with none: no page here reads the context or the bot's view.
    base: {} as BaseContext,
    view: { guild: async () => undefined, member: async () => undefined },
    refresh: async () => undefined,
    unanswered: async () => ({ reviews: [], total: 0 }),
    review: async () => undefined,
    context: async () => undefined,
    logger: createLogger('silent', []),
  };
  const app = await dashboardApp(deps);
  apps.push(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  return { app, url: `http://127.0.0.1:${address.port}` };
}

/** A signed-in member's cookie as `app` seals it. */
function sealed(app: FastifyInstance, expiresAt = Date.now() + 60_000): string {
  const session = app.createSecureSession({
    member: { id: '330000000000000003', name: 'Owner', locale: 'en-US', guildIds: [], expiresAt, sid: 'a-sign-in' },
  });
  return `dashboard=${encodeURIComponent(app.encodeSecureSession(session))}`;
}

const home = (url: string, cookie: string) => fetch(`${url}/`, { headers: { cookie }, redirect: 'manual' });

describe("the dashboard's session cookie", () => {
  it('still opens after SESSION_KEY moved to SESSION_KEY_PREVIOUS, and no longer once that is dropped', async () => {
    const before = await dashboard([OLD]);
    const cookie = sealed(before.app);
    expect((await home(before.url, cookie)).status).toBe(200);
    const rotating = await dashboard([NEW, OLD]);
    expect((await home(rotating.url, cookie)).status).toBe(200);
    const after = await dashboard([NEW]);
    expect((await home(after.url, cookie)).status).toBe(302);
  });

  it('opens nothing once its sign-in has expired', async () => {
    const { app, url } = await dashboard([NEW]);
    expect((await home(url, sealed(app, Date.now() - 1))).status).toBe(302);
  });
});
