import { disableValidators, Events } from 'discord.js';
import { becomeActive } from './become-active.js';
import { checkService } from '../bot/check-service.js';
import { guardInteractionBuild } from '../bot/guard-interaction-build.js';
import { createDiscordClient } from '../bot/client.js';
import { connect } from '../bot/connect.js';
import { InFlight } from '../bot/in-flight.js';
import { loadCommands } from '../bot/load-commands.js';
import { createRouter } from '../bot/router.js';
import { loadConfig, loadRole, secretValues } from '../config/bot.js';
import { DISCORD_API } from '../config/shared-fields.js';
import { EXIT_FAILURE } from '../core/exit-codes.js';
import { onStopSignal } from '../core/stop-on-signal.js';
import { drainOnSignal } from './drain-on-signal.js';
import { serveHealthPort } from '../hosting/health-only.js';
import { startHosting, type Hosting, type Phase } from '../hosting/index.js';
import type { BotMetrics } from '../hosting/metrics.js';
import { componentHandlers } from '../interactions/index.js';
import { MemberNames } from '../bot/member-names.js';
import { ReplyGuard } from '../bot/reply-guard.js';
import { refuseWhileStopping } from '../bot/refuse-while-stopping.js';
import { processLogger } from './process-logger.js';
import { watchRateLimits } from '../core/discord-rate-limits.js';
import { startRealtime } from './realtime.js';
import { environmentServer } from '../servers/environment-server.js';
import { watchMembership } from '../runtime/membership.js';
import { refuseUnopenableSecrets } from '../servers/sealing-keys.js';
import { Servers } from '../servers/servers.js';
import { ServiceClients } from '../servers/service-clients.js';
import { setupPorts } from './setup-ports.js';
import { followSettingsChanges } from './settings-changes.js';
import { openStore } from '../store/index.js';
import { exitOnStartFailure } from './start-failure.js';
import { watchGatewayConnection } from '../bot/gateway-connection.js';
import { resolveShards } from './resolve-shards.js';
import { formatShardIds } from '../shards/shard-ids.js';
import { InlineCallbacks } from '../bot/inline-callbacks.js';
import { ENDPOINT_CLOSE_MS, serveInteractions } from './interactions-endpoint.js';

async function main(): Promise<void> {
  const started = performance.now();
  // Builder validation was a large share of the bot's CPU under load (docs/performance.md). The
  // views' unit tests run with it on, and the e2e stand-in checks every payload against Discord's limits.
  disableValidators();
  const config = loadConfig();
  const logger = processLogger(config, secretValues(config));
  // Metrics are kept only when a host will read them (METRICS_PORT).
  // prom-client is loaded only when metrics are served.
  const metrics: BotMetrics | undefined =
    config.metricsPort === undefined ? undefined : new (await import('../hosting/metrics.js')).BotMetrics();
  const { apiKey: _apiKey, appId: _appId, ...shared } = config.service;
  const commands = await loadCommands(new URL('../../commands/', import.meta.url));
  const names = new MemberNames();
  let phase: Phase = 'starting';
  const healthPort = await serveHealthPort(config.healthPort, () => phase);
  // Nothing to drain until this process acts: a standby (or a start not yet done) just stops.
  const dropEarlyStop = onStopSignal((signal) => {
    logger.info({ signal }, 'stopped before acting');
    process.exit(0);
  });
  const ownership = await resolveShards(config);
  const shards = { count: ownership.count, ids: formatShardIds(ownership.ids) };
  logger.info({ shards }, 'shards this process runs');
  const lock = await becomeActive({
    config,
    shards: ownership,
    logger,
    phase: () => phase,
    setPhase: (next) => (phase = next),
    onLost: (err) => {
      // At once, with no drain: another process may already be acting. The supervisor starts this one
      // again, which waits as a standby if the other holds the store.
      logger.fatal({ err }, 'lost the store lock; exiting so that only one process acts');
      process.exit(EXIT_FAILURE);
    },
  });
  const inline = config.interactions ? new InlineCallbacks() : undefined;
  const client = createDiscordClient(config, ownership, inline);
  const store = await openStore(config.database, undefined, { poolSize: config.databasePoolSize });
  logger.info({ backend: store.backend, driver: store.driver, schema: await store.schemaVersion() }, 'store open');
  await refuseUnopenableSecrets(store, config.secrets);
  const servers = new Servers(store, config.secrets, environmentServer(config));
  const { adopted } = await servers.load();
  if (adopted > 0)
    logger.info(
      { rows: adopted, guildId: config.discord.guildId },
      'store rows from before many servers given to the server',
    );
  logger.info({ mode: servers.mode, servers: servers.known().length }, 'servers loaded');
  const clients = new ServiceClients({
    shared: {
      ...shared,
      onAttempt: (attempt) => {
        logger.debug({ attempt }, 'service request');
        metrics?.serviceAttempt(attempt);
      },
      onRateLimit: (event) => metrics?.serviceRateLimited(event),
    },
    credentials: (guildId) => servers.credentials(guildId),
  });
  // Not awaited: the bot starts either way, and the line tells the operator what to fix.
  if (servers.environment) void checkService(clients.forServer(servers.environment.guildId), logger);
  const setup = setupPorts({
    store,
    clients,
    commands: commands.values(),
    // Called from an interaction, long after `realtime` below is made.
    milestonesChanged: (guildId) => realtime.runtimes.get(guildId)?.milestonesChanged(),
    unwrittenDeliveries: (guildId) => realtime.deliveries.waiting(guildId),
  });
  const base = { config, logger, replyGuard: new ReplyGuard(), now: () => new Date(), servers, setup };
  const realtime = await startRealtime({
    config,
    servers,
    clients,
    client,
    root: store,
    base,
    logger,
    names,
    ownership,
    onWebhookRefused: metrics && ((reason) => metrics.webhookRefused(reason)),
  });
  const stopWatching = watchMembership(client, servers, realtime.runtimes, logger);
  // /setup may be answered elsewhere (npm run interactions): its changes reach this process's servers.
  const settingsChanges =
    config.database.kind === 'postgres'
      ? followSettingsChanges({
          url: config.database.url,
          servers,
          owns: (guildId) => ownership.owns(guildId),
          restart: (guildId) => realtime.runtimes.sync(guildId),
          logger,
        })
      : undefined;
  const route = createRouter({
    commands,
    components: componentHandlers,
    base,
    contextFor: (guildId) => realtime.runtimes.get(guildId)?.context,
    onlyGuildId: config.discord.guildId,
    onHandled: metrics && ((info) => metrics.interactionHandled(info)),
  });
  const inFlight = new InFlight();
  // Interactions over HTTP wait for the servers' contexts, made once Discord is connected.
  let begun!: () => void;
  const servingBegins = new Promise<void>((resolve) => (begun = resolve));

  client.on(Events.InteractionCreate, (interaction) => {
    names.rememberFrom(interaction);
    if (interaction.isRepliable()) metrics?.interactionReceived(interaction.id);
    if (inFlight.accepting) inFlight.track(route(interaction));
    else void refuseWhileStopping(interaction, logger);
  });
  client.once(Events.ClientReady, (ready) => {
    if (phase === 'starting') phase = 'ok';
    void realtime
      .begin()
      .catch((err: unknown) => logger.error({ err }, "could not start the servers' work"))
      .finally(begun);
    logger.info(
      {
        user: ready.user.tag,
        guilds: ready.guilds.cache.size,
        shards,
        commands: [...commands.keys()],
        ms: Math.round(performance.now() - started),
      },
      'ready',
    );
  });
  client.on(Events.Error, (err) => logger.error({ err }, 'discord client error'));
  client.on(Events.Warn, (warning) => logger.warn({ warning }, 'discord client warning'));
  const endGatewayWatch = watchGatewayConnection(client, logger);
  const rateLimits = watchRateLimits(client.rest, logger, metrics && ((kind) => metrics.discordRateLimited(kind)));
  guardInteractionBuild(client, logger);

  let hosting: Hosting | undefined;
  if (metrics && config.metricsPort !== undefined) {
    hosting = await startHosting({
      port: config.metricsPort,
      host: config.metricsHost,
      metrics,
      client,
      inFlight,
      phase: () => phase,
      work: () => store.workCounts(),
    });
    logger.info({ url: hosting.url, paths: ['/healthz', '/metrics'] }, 'health and metrics server listening');
  }

  const endpoint =
    inline && (await serveInteractions({ config, client, inline, logger, ready: servingBegins, handled: store }));
  const dashboard =
    config.dashboard &&
    (await (
      await import('./dashboard-server.js')
    ).startDashboard({
      config,
      base,
      store,
      view: (await import('../dashboard/bot-view.js')).gatewayView(client),
      logger,
      refresh: async () => undefined,
      context: async (guildId) => realtime.runtimes.get(guildId)?.context,
    }));

  dropEarlyStop();
  drainOnSignal({
    logger,
    inFlight,
    graceMs: config.shutdownGraceMs,
    stopping: () => (phase = 'stopping'),
    async then() {
      await endpoint?.close(ENDPOINT_CLOSE_MS);
      await dashboard?.close();
      stopWatching();
      await settingsChanges?.stop();
      await realtime.stop();
      endGatewayWatch();
      await client.destroy();
      // What was paced since the last summary line, so a stop loses none of it.
      rateLimits.close();
      await store.close();
      // Last: a standby takes over the moment this is released, and this process no longer acts.
      await lock.release();
      await hosting?.close();
      await healthPort?.close();
    },
  });

  await connect(client, config.discord.token, config.discord.apiUrl ?? DISCORD_API, logger);
}

/** ROLE=receiver runs the webhook receiver alone, without any of the bot's Discord or service settings. */
async function start(): Promise<void> {
  // The receiver alone loads none of the bot (nor it, the receiver's own metrics).
  if (loadRole() === 'receiver') return (await import('./receiver-role.js')).receiverRole();
  return main();
}

/** Starts the bot (or the receiver alone, ROLE=receiver); a failure to start exits with its code and the fix. */
export function startBot(): void {
  start().catch((error: unknown) => exitOnStartFailure(error, 'The bot'));
}
