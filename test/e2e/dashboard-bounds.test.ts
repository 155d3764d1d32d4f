import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { DASHBOARD_REQUEST_TIMEOUT_MS } from '../../src/config/dashboard-limits.js';
import { SIGN_INS } from '../../src/dashboard/login.js';
import { closedPort } from '../../tools/closed-port.js';
import { asMember, textOf } from '../../tools/conversation.js';
import { dashboardSettings, DashboardVisitor } from '../../tools/dashboard-visitor.js';
import { DEFAULTS, member, nextSnowflake } from '../../tools/discord-standin/index.js';
import { deliver, voteEvent } from '../../tools/guilds-webhook.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { VOTER } from '../../tools/seed.js';
import { startWorld, type World } from '../../tools/world.js';
import { trickleFlood } from '../support/stranger.js';

/*
 * What a stranger who reaches the dashboard's port can hold and claim, against the built bot run as
 * `npm start` runs it, with the dashboard, the receiver and /healthz in one process under a small
 * host's open-file limit. The reverse proxy it trusts is 127.0.0.1 alone.
 */
const OPEN_FILES = 1_024;
const TRICKLERS = 1_000;
/** A quarter of the limit: with the receiver's 512 beside it, a quarter stays for Discord, the store and /healthz. */
const MAX_CONNECTIONS = OPEN_FILES / 4;
const PROXY = '127.0.0.1';
/** The request deadline, the sweep that finds it, and slack for a busy machine. */
const CUT_WITHIN_MS = DASHBOARD_REQUEST_TIMEOUT_MS + 2_000;

let world: World;
let publicUrl: string;
let webhookUrl: string;
let healthBase: string;

beforeAll(async () => {
  const dashboard = await dashboardSettings();
  publicUrl = dashboard.publicUrl;
  const { url, ...receiver } = await receiverEnv();
  webhookUrl = url;
  const metricsPort = await closedPort();
  healthBase = `http://127.0.0.1:${metricsPort}`;
  world = await startWorld({
    env: { ...receiver, ...dashboard.env, METRICS_PORT: String(metricsPort), DASHBOARD_TRUSTED_PROXIES: PROXY },
    openFiles: OPEN_FILES,
  });
  await world.bot.waitForLog((line) => line.msg === 'dashboard listening');
});
afterAll(async () => {
  await world?.close();
  removeStoreFiles();
});

/** Sign-ins sent one after another with these headers: each status, and how many the bucket could have let through. */
async function signIns(visitor: DashboardVisitor, headers: (i: number) => Record<string, string>) {
  const started = performance.now();
  const statuses: number[] = [];
  for (let i = 0; i < SIGN_INS.capacity + 30; i += 1) statuses.push((await visitor.get('/login', headers(i))).status);
  const refilled = Math.ceil(((performance.now() - started) / 60_000) * SIGN_INS.perMinute);
  return {
    passed: statuses.filter((status) => status === 302).length,
    allowed: SIGN_INS.capacity + refilled,
    statuses,
  };
}

describe(`the sign-in limit, with DASHBOARD_TRUSTED_PROXIES=${PROXY}`, () => {
  it('counts a visitor that is not the proxy by its own address, whatever X-Forwarded-For it makes up', async () => {
    const stranger = new DashboardVisitor(publicUrl, '127.0.0.3');
    const { passed, allowed, statuses } = await signIns(stranger, (i) => ({ 'x-forwarded-for': `198.51.100.${i}` }));
    expect(passed).toBeLessThanOrEqual(allowed);
    expect(statuses).toContain(429);
  });

  it('counts a visitor behind the proxy by the address the proxy added, not the left-most one the visitor wrote', async () => {
    const proxy = new DashboardVisitor(publicUrl);
    const { passed, allowed, statuses } = await signIns(proxy, (i) => ({
      'x-forwarded-for': `198.51.100.${i}, 203.0.113.7`,
    }));
    expect(passed).toBeLessThanOrEqual(allowed);
    expect(statuses).toContain(429);
    // Another visitor behind the same proxy has a bucket of its own.
    expect((await proxy.get('/login', { 'x-forwarded-for': '203.0.113.8' })).status).toBe(302);
  });
});

/** GET /healthz on a new connection (a kept-alive one would not show whether the process can still accept). */
function healthz(): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(`${healthBase}/healthz`, { agent: false, timeout: 2_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end();
  });
}

const openFilesOf = (pid: number): number => readdirSync(`/proc/${pid}/fd`).length;

describe(`${TRICKLERS} connections trickling requests into the dashboard, under ulimit -n ${OPEN_FILES}`, () => {
  it('are each answered 408 or closed within seconds, while /healthz, the receiver and the gateway go on', async () => {
    const flood = await trickleFlood(publicUrl, TRICKLERS);
    try {
      // Past the cap each is closed unanswered at once: once they are, the dashboard is as full as it gets.
      await flood.closed(TRICKLERS - MAX_CONNECTIONS, CUT_WITHIN_MS);
      expect(await healthz()).toBe(200);
      expect(await deliver(webhookUrl, WEBHOOK_TOKEN, voteEvent(DEFAULTS.guildId, nextSnowflake()))).toBe(200);
      const answer = await asMember(world.discord, member({ id: VOTER }))
        .command('vote')
        .waitForMessage();
      expect(textOf(answer)).toContain(`<@${VOTER}>`);
      expect(openFilesOf(world.bot.child.pid!)).toBeLessThan(OPEN_FILES - 100);
      await flood.allClosed(CUT_WITHIN_MS + 2_000);
    } finally {
      flood.destroy();
    }
    expect(flood.tricklers.filter((t) => t.closedAt! - t.openedAt > CUT_WITHIN_MS)).toEqual([]);
    const answered = flood.tricklers.filter((t) => t.status !== undefined);
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.filter((t) => t.status !== 408)).toEqual([]);
    // The rest were closed unanswered at the cap.
    const listening = await world.bot.waitForLog((line) => line.msg === 'dashboard listening');
    expect(listening.maxConnections).toBe(MAX_CONNECTIONS);
    expect(flood.tricklers.length - answered.length).toBeGreaterThanOrEqual(TRICKLERS - MAX_CONNECTIONS);
    const cut = await world.bot.waitForLog((line) => line.msg === 'dashboard connections cut');
    expect(cut.counts).toHaveProperty('connection_cap');
  }, 60_000);
});
