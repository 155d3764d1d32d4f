import type { ReceiverConfig } from '../config/receiver.js';
import { startHealthServer, type HealthServer } from '../hosting/health-server.js';
import type { Phase } from '../hosting/index.js';
import { ReceiverMetrics } from '../hosting/receiver-metrics.js';
import type { Logger } from '../core/log.js';
import { refuseUnopenableSecrets } from '../servers/sealing-keys.js';
import { Servers } from '../servers/servers.js';
import { openStore } from '../store/index.js';
import { DeliveryLog } from '../webhooks/delivery-log.js';
import { startWebhookReceiver } from './webhook-receiver.js';

/**
 * ROLE=receiver: the webhook receiver alone, with no Discord connection and no token. It keeps
 * nothing but its connections (tokens are read from the shared store), so any number can stand
 * behind a load balancer; the store's NOTIFY tells the bot process that owns the server.
 * Resolves with a stop function once it listens.
 */
export async function runReceiverProcess(config: ReceiverConfig, logger: Logger): Promise<() => Promise<void>> {
  let phase: Phase = 'starting';
  const metrics = config.metricsPort === undefined ? undefined : new ReceiverMetrics();
  const health = (port: number, host: string, setting: string, withMetrics: boolean) =>
    serve(port, host, setting, () => phase, withMetrics ? metrics : undefined);
  const healthOnly =
    config.healthPort === undefined ? undefined : await health(config.healthPort, '127.0.0.1', 'HEALTH_PORT', false);
  const hosting =
    config.metricsPort === undefined
      ? undefined
      : await health(config.metricsPort, config.metricsHost, 'METRICS_PORT', true);
  const store = await openStore(config.database);
  logger.info({ backend: store.backend, schema: await store.schemaVersion() }, 'store open');
  await refuseUnopenableSecrets(store, config.secrets);
  const single = config.guildId;
  const servers = new Servers(
    store,
    config.secrets,
    single === undefined
      ? undefined
      : {
          guildId: single,
          settings: {},
          credentials: undefined,
          webhookToken: config.webhook.token,
          listingSecrets: config.webhook.listingSecrets,
          listingVoteHours: config.webhook.listingVoteHours,
        },
  );
  // Refusals are logged where they are seen; stored and duplicate, by the bot that handles the event.
  const deliveries = new DeliveryLog({ store, logger });
  const receiver = await startWebhookReceiver({
    webhook: config.webhook,
    database: config.database,
    servers,
    store,
    logger,
    deliveries,
    onRefused: metrics && ((reason) => metrics.webhookRefused(reason)),
    // No inbox here: the bot that handles the event finds it in the store (NOTIFY or its poll); it is only counted.
    inbox: { wake: () => metrics?.eventStored() },
  });
  phase = 'ok';
  logger.info(
    { url: receiver.url, role: 'receiver' },
    'webhook receiver listening; no Discord connection in this process',
  );
  return async () => {
    phase = 'stopping';
    // Deliveries in flight are answered (or cut, and Guilds retries them); then the store closes.
    await receiver.close();
    await deliveries.stop();
    await store.close();
    await hosting?.close();
    await healthOnly?.close();
  };
}

async function serve(
  port: number,
  host: string,
  setting: string,
  phase: () => Phase,
  metrics: ReceiverMetrics | undefined,
): Promise<HealthServer> {
  return startHealthServer({
    port,
    host,
    health: () => ({
      status: phase(),
      ready: phase() === 'ok',
      role: 'receiver',
      uptimeSeconds: Math.round(process.uptime()),
    }),
    metrics: metrics && (() => metrics.render()),
    advice: (reason) => `Could not serve /healthz on ${host}:${port} (${reason}): choose a free ${setting}.`,
  });
}
