import { hostInUrl } from '../core/listen.js';
import { startHealthServer, type HealthServer } from './health-server.js';
import type { Phase } from './index.js';

export interface HealthOnlyOptions {
  port: number;
  host: string;
  /** The setting that chose the port, named when it cannot be opened. */
  setting: 'HEALTH_PORT' | 'METRICS_PORT';
  phase: () => Phase;
}

/**
 * /healthz alone, before (and without) the Discord client and metrics: on HEALTH_PORT for the whole
 * run, where the container image's HEALTHCHECK asks whatever an env file says about METRICS_PORT;
 * on METRICS_PORT while this process waits for the store, until the full server takes the port.
 */
export async function serveHealthOnly({ port, host, setting, phase }: HealthOnlyOptions): Promise<HealthServer> {
  return startHealthServer({
    port,
    host,
    health: () => ({ status: phase(), ready: phase() === 'ok', uptimeSeconds: Math.round(process.uptime()) }),
    advice: (reason) =>
      `Could not serve /healthz on ${hostInUrl(host)}:${port} (${reason}): choose a free ${setting} (or leave it empty).`,
  });
}

/** HEALTH_PORT's /healthz on loopback for the whole run, when the setting names a port. */
export function serveHealthPort(port: number | undefined, phase: () => Phase): Promise<HealthServer | undefined> {
  if (port === undefined) return Promise.resolve(undefined);
  return serveHealthOnly({ port, host: '127.0.0.1', setting: 'HEALTH_PORT', phase });
}
