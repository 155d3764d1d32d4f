import type { Client } from 'discord.js';
import type { Config } from '../config/bot.js';
import type { Logger } from '../core/log.js';
import { startHosting, type Hosting, type HostingOptions } from '../hosting/index.js';
import type { BotMetrics } from '../hosting/metrics.js';
import type { BaseContext, BotContext } from '../runtime/context.js';
import type { StoreRoot } from '../store/index.js';

// What `npm start` serves beside the gateway when its settings ask: /healthz and /metrics, the dashboard.

/** /healthz and /metrics on METRICS_PORT, when metrics are kept. */
export async function startMetrics(
  config: Config,
  parts: Pick<HostingOptions, 'client' | 'inFlight' | 'phase'> & { metrics: BotMetrics | undefined; store: StoreRoot },
  logger: Logger,
): Promise<Hosting | undefined> {
  const { metrics, client, inFlight, phase, store } = parts;
  if (!metrics || config.metricsPort === undefined) return undefined;
  const hosting = await startHosting({
    port: config.metricsPort,
    host: config.metricsHost,
    metrics,
    client,
    inFlight,
    phase,
    work: () => store.workCounts(),
  });
  logger.info({ url: hosting.url, paths: ['/healthz', '/metrics'] }, 'health and metrics server listening');
  return hosting;
}

/** The web dashboard in this process (DASHBOARD_PORT), reading servers from the gateway's cache. */
export async function startDashboardBeside(
  config: Config,
  parts: {
    base: BaseContext;
    store: StoreRoot;
    client: Client;
    realtime: { runtimes: { get(guildId: string): { context: BotContext } | undefined } };
    logger: Logger;
  },
) {
  if (!config.dashboard) return undefined;
  const { base, store, client, realtime, logger } = parts;
  const { startDashboard } = await import('./dashboard-server.js');
  return startDashboard({
    config,
    base,
    store,
    view: (await import('../dashboard/bot-view.js')).gatewayView(client),
    logger,
    refresh: async () => undefined,
    context: async (guildId) => realtime.runtimes.get(guildId)?.context,
  });
}
