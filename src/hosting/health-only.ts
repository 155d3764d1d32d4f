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
