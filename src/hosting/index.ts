import { Status, type Client } from 'discord.js';
import { hostInUrl } from '../core/listen.js';
import type { InFlight } from '../bot/in-flight.js';
import { startHealthServer, type Health, type HealthServer } from './health-server.js';
import type { WorkCounts } from '../store/index.js';
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
  /** What waits for Discord and what is parked, read from the store at scrape time. */
  work?: () => Promise<WorkCounts>;
}

/** A scrape never waits long on a slow store: the work gauges are left out of that one. */
const WORK_READ_MS = 1_000;

/**
 * What a host expects: /healthz and /metrics on host:port (loopback unless METRICS_HOST says otherwise), fed by the client and the metrics.
 * A port that cannot be opened stops the start with a clear reason: the host asked for it.
 */
export async function startHosting({
  port,
  host,
  metrics,
  client,
  inFlight,
  phase,
  work,
}: HostingOptions): Promise<Hosting> {
  observeInteractionResponses(client, metrics);
  const live = () => ({
    ready: phase() === 'ok',
    inFlight: inFlight.size,
    gatewayPingMs: client.ws.ping,
    gatewayConnected: client.ws.status === Status.Ready,
  });
  return startHealthServer({
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
    metrics: async () => metrics.render(live(), work && (await readWithin(work, WORK_READ_MS))),
    advice: (reason) =>
      `Could not serve /healthz and /metrics on ${hostInUrl(host)}:${port} (${reason}): choose a free METRICS_PORT (or leave it empty), and a METRICS_HOST this machine has.`,
  });
}

async function readWithin<T>(read: () => Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([read().catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}
