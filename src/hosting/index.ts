import { Status, type Client } from 'discord.js';
import { FatalStartError } from '../bot/connect.js';
import type { InFlight } from '../bot/in-flight.js';
import { startHealthServer, type Health, type HealthServer } from './health-server.js';
import type { BotMetrics } from './metrics.js';
import { observeInteractionResponses } from './observe-responses.js';

export type Phase = Health['status'];
export type Hosting = HealthServer;

export interface HostingOptions {
  port: number;
  host: string;
  metrics: BotMetrics;
  client: Client;
  inFlight: InFlight;
  phase: () => Phase;
}

/**
 * What a host expects: /healthz and /metrics on host:port (loopback unless METRICS_HOST says otherwise), fed by the client and the metrics.
 * A port that cannot be opened stops the start with a clear reason: the host asked for it.
 */
export async function startHosting({ port, host, metrics, client, inFlight, phase }: HostingOptions): Promise<Hosting> {
  observeInteractionResponses(client, metrics);
  const live = () => ({
    ready: phase() === 'ok',
    inFlight: inFlight.size,
    gatewayPingMs: client.ws.ping,
    gatewayConnected: client.ws.status === Status.Ready,
  });
  try {
    return await startHealthServer({
      port,
      host,
      health: () => {
        const now = live();
        return {
          status: phase(),
          ready: now.ready,
          gatewayConnected: now.gatewayConnected,
          interactionsInFlight: now.inFlight,
          uptimeSeconds: Math.round(process.uptime()),
        };
      },
      metrics: () => metrics.render(live()),
    });
  } catch (error) {
    const reason = (error as { code?: string }).code ?? (error as Error).message;
    throw new FatalStartError(
      `Could not serve /healthz and /metrics on ${host.includes(':') ? `[${host}]` : host}:${port} (${reason}): choose a free METRICS_PORT (or leave it empty), and a METRICS_HOST this machine has.`,
    );
  }
}
