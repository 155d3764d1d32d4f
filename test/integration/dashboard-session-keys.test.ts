import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { dashboardApp } from '../../src/dashboard/app.js';
import type { DashboardDeps } from '../../src/dashboard/deps.js';
import { createLogger } from '../../src/core/log.js';
import type { BaseContext } from '../../src/runtime/context.js';
import { openStore, type SignOutStore, type StoreRoot } from '../../src/store/index.js';
import { capturedLog } from '../support/captured-log.js';
import { pollUntil } from '../support/poll-until.js';
import { storeBackends } from '../support/store-backends.js';

/** How often the apps here read sign-outs (30 s in production). */
const READ_MS = 100;
const OLD = Buffer.alloc(32, 1);
const NEW = Buffer.alloc(32, 2);
const apps: FastifyInstance[] = [];
const stores: StoreRoot[] = [];
let store: StoreRoot;

beforeAll(async () => {
  store = await openStore({ kind: 'sqlite', file: ':memory:' });
  stores.push(store);
});
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
});

/** The dashboard with these cookie keys (the first seals), listening on a free loopback port. */
async function dashboard(
  keys: Buffer[],
  signOuts: SignOutStore = store,
  logger = createLogger('silent', []),
): Promise<{ app: FastifyInstance; url: string }> {
  const deps: DashboardDeps = {
    settings: {
      port: 0,
      host: '127.0.0.1',
      publicUrl: 'http://127.0.0.1',
      clientSecret: 'client-secret',
      sessionKeys: keys,
      authorizeUrl: 'http://127.0.0.1:9/oauth2/authorize',
      secure: false,
      trustedProxies: ['127.0.0.1'],
      maxConnections: undefined,
    },
    clientId: '110000000000000001',
    apiUrl: 'http://127.0.0.1:9/api',
    // The servers list of a member with none: no page here reads the context or the bot's view.
    base: {} as BaseContext,
    view: { guild: async () => undefined, member: async () => undefined },
    refresh: async () => undefined,
    unanswered: async () => ({ reviews: [], total: 0 }),
    signOuts,
    review: async () => undefined,
    context: async () => undefined,
    logger,
    signOutsReadMs: READ_MS,
  };
  const app = await dashboardApp(deps);
  apps.push(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  return { app, url: `http://127.0.0.1:${address.port}` };
}

/** A signed-in member's cookie as `app` seals it. */
function sealed(app: FastifyInstance, expiresAt = Date.now() + 60_000, sid = 'a-sign-in'): string {
  const session = app.createSecureSession({
    member: { id: '330000000000000003', name: 'Owner', locale: 'en-US', guildIds: [], expiresAt, sid },
    csrf: 'form-token',
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

const logout = (url: string, cookie: string) =>
  fetch(`${url}/logout`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: '_csrf=form-token',
    redirect: 'manual',
  });

describe.each(storeBackends('sign-outs-'))('a sign-out, kept in the store ($name)', (backend) => {
  it('refuses a kept copy of the cookie after a restart, and keeps it for the other processes to read', async () => {
    const target = await backend.fresh();
    const shared = await openStore(target);
    stores.push(shared);
    const first = await dashboard([NEW], shared);
    const other = await dashboard([NEW], shared);
    const cookie = sealed(first.app, Date.now() + 60_000, 'signed-out-here');
    const untouched = sealed(first.app, Date.now() + 60_000, 'still-signed-in');
    expect((await home(other.url, cookie)).status).toBe(200);

    expect((await logout(first.url, cookie)).status).toBe(200);
    expect((await home(first.url, cookie)).status).toBe(302);
    // A restart: a new app on the same store reads the sign-out at start.
    const restarted = await dashboard([NEW], await openStore(target).then((root) => (stores.push(root), root)));
    expect((await home(restarted.url, cookie)).status).toBe(302);
    expect((await home(restarted.url, untouched)).status).toBe(200);
    // A process already running reads the store every 30 s (SIGN_OUTS_READ_MS); the row is there for it.
    expect([...(await shared.signOuts(Date.now())).keys()]).toEqual(['signed-out-here']);
  }, 60_000);

  it('writes a sign-out the store refused at logout with a later read, once the store works again', async () => {
    const target = await backend.fresh();
    const root = await openStore(target);
    stores.push(root);
    // The real store, made to fail its writes as a stalled database would.
    let failing = true;
    let writes = 0;
    const flaky: SignOutStore = {
      endSignIn: async (...args) => {
        writes += 1;
        if (failing) throw new Error('database is locked');
        return root.endSignIn(...args);
      },
      signOuts: (now) => root.signOuts(now),
    };
    const { logger, lines } = capturedLog();
    const first = await dashboard([NEW], flaky, logger);
    const cookie = sealed(first.app, Date.now() + 60_000, 'refused-at-first');

    expect((await logout(first.url, cookie)).status).toBe(200);
    expect((await home(first.url, cookie)).status).toBe(302);
    // The logout's write and three reads' after it, all refused: the first two reads had their say
    // in the log by the time the third began, 100 ms later.
    await pollUntil(() => writes >= 4, 'three reads that wrote again after the logout', { everyMs: 10 });
    expect((await root.signOuts(Date.now())).size).toBe(0);
    // One warn line for the logout and one for the outage of the reads, not one a read.
    expect(lines.filter((line) => line.level === 40).map((line) => line.msg)).toEqual([
      'dashboard sign-out not stored yet; written with the next read of sign-outs',
      'dashboard sign-outs not read; trying again',
    ]);

    failing = false;
    await pollUntil(
      async () => (await root.signOuts(Date.now())).has('refused-at-first'),
      'the sign-out written by a later read',
      { everyMs: 20 },
    );
    expect([...(await root.signOuts(Date.now())).keys()]).toEqual(['refused-at-first']);
    expect(lines.map((line) => line.msg)).toContain('dashboard sign-outs are read and written again');
    const restarted = await dashboard([NEW], await openStore(target).then((other) => (stores.push(other), other)));
    expect((await home(restarted.url, cookie)).status).toBe(302);
  }, 60_000);

  it('forgets sign-outs past their expiry when the next one is written', async () => {
    const root = await openStore(await backend.fresh());
    stores.push(root);
    const now = Date.now();
    await root.endSignIn('old', '1', now - 1, now - 10);
    await root.endSignIn('new', '1', now + 60_000, now);
    expect([...(await root.signOuts(now)).keys()]).toEqual(['new']);
  });
});
