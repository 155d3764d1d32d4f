import { afterEach, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import {
  PROMETHEUS_TEXT,
  startHealthServer,
  type Health,
  type HealthServer,
} from '../../../src/hosting/health-server.js';

describe('the health and metrics server', () => {
  let server: HealthServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function start(health: () => Health) {
    server = await startHealthServer({ port: 0, health, metrics: async () => '# HELP x X.\n# TYPE x gauge\nx 1\n' });
    return server.url;
  }

  it('listens on loopback only', async () => {
    const url = await start(() => ({ status: 'ok', ready: true }));
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('answers /healthz with 200 when ready and 503 while starting or stopping', async () => {
    let health: Health = { status: 'starting', ready: false };
    const url = await start(() => health);
    const starting = await fetch(`${url}/healthz`);
    expect(starting.status).toBe(503);
    expect(await starting.json()).toEqual({ status: 'starting', ready: false });
    health = { status: 'ok', ready: true };
    const ok = await fetch(`${url}/healthz`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('application/json');
    expect(await ok.json()).toEqual({ status: 'ok', ready: true });
    health = { status: 'stopping', ready: false };
    expect((await fetch(`${url}/healthz`)).status).toBe(503);
  });

  it('answers /healthz with 200 for a standby: it is well, waiting to take over the store', async () => {
    const url = await start(() => ({ status: 'standby', ready: false }));
    const response = await fetch(`${url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'standby', ready: false });
  });

  it('serves /healthz alone when given no metrics', async () => {
    server = await startHealthServer({ port: 0, health: () => ({ status: 'ok', ready: true }) });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
  });

  it('serves /metrics as text format 0.0.4', async () => {
    const url = await start(() => ({ status: 'ok', ready: true }));
    const response = await fetch(`${url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(await response.text()).toBe('# HELP x X.\n# TYPE x gauge\nx 1\n');
  });

  it("names /metrics' content type as prom-client does, without loading it", () => {
    expect(PROMETHEUS_TEXT).toBe(Registry.PROMETHEUS_CONTENT_TYPE);
  });

  it('answers 404 for other paths and 405 for other methods', async () => {
    const url = await start(() => ({ status: 'ok', ready: true }));
    expect((await fetch(`${url}/`)).status).toBe(404);
    expect((await fetch(`${url}/metrics/extra`)).status).toBe(404);
    const post = await fetch(`${url}/metrics`, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers 500 without details when reading the state throws', async () => {
    const url = await start(() => {
      throw new Error('secret detail');
    });
    const response = await fetch(`${url}/healthz`);
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('secret');
  });

  it('rejects when the port is taken', async () => {
    const url = await start(() => ({ status: 'ok', ready: true }));
    const port = Number(new URL(url).port);
    await expect(
      startHealthServer({ port, health: () => ({ status: 'ok', ready: true }), metrics: async () => '' }),
    ).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});
