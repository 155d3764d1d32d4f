import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { hostInUrl, listen, type ListenAdvice } from '../core/listen.js';

/** prom-client's Registry.PROMETHEUS_CONTENT_TYPE, kept here so a health-only server never loads prom-client. */
export const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

export interface Health {
  /** standby: another process holds the store and this one waits to take over (see store/postgres-lock.ts). */
  status: 'starting' | 'standby' | 'ok' | 'stopping';
  ready: boolean;
  [detail: string]: unknown;
}

export interface HealthServerOptions {
  port: number;
  /** Loopback by default: the host's agent scrapes locally; nothing here is for the internet. */
  host?: string;
  health: () => Health;
  /** Without it, /metrics is not served (404). */
  metrics?: () => Promise<string>;
  /** What to change when the port cannot be had (the start fails with it); without it, Node's own error. */
  advice?: ListenAdvice;
}

export interface HealthServer {
  /** e.g. http://127.0.0.1:9464 */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * GET /healthz (200 when ready or a standby, 503 while starting or stopping, JSON either way) and
 * GET /metrics (Prometheus text). Anything else is 404, or 405 for another method on those two paths.
 * A standby is well: it waits its turn, and a probe that called it unhealthy would have it restarted
 * or keep a rolling update from ever finishing.
 */
export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const server = createServer((req, res) => void answer(req, res, options));
  server.keepAliveTimeout = 5_000;
  const { address, port } = await listen(server, options.port, options.host ?? '127.0.0.1', options.advice);
  return {
    url: `http://${hostInUrl(address)}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function answer(req: IncomingMessage, res: ServerResponse, options: HealthServerOptions): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  const metrics = path === '/metrics' ? options.metrics : undefined;
  if (path !== '/healthz' && !metrics) return send(res, 404, 'text/plain; charset=utf-8', 'Not found\n');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return send(res, 405, 'text/plain; charset=utf-8', 'Method not allowed\n');
  }
  try {
    if (path === '/healthz') {
      const health = options.health();
      return send(
        res,
        (health.ready && health.status === 'ok') || health.status === 'standby' ? 200 : 503,
        'application/json',
        `${JSON.stringify(health)}\n`,
        req.method === 'HEAD',
      );
    }
    const text = (await metrics?.()) ?? '';
    return send(res, 200, PROMETHEUS_TEXT, text, req.method === 'HEAD');
  } catch {
    return send(res, 500, 'text/plain; charset=utf-8', 'Internal error\n');
  }
}

function send(res: ServerResponse, status: number, contentType: string, body: string, headOnly = false): void {
  res.writeHead(status, {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(headOnly ? undefined : body);
}
