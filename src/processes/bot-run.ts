import { disableValidators, Events, type Client } from 'discord.js';
import { becomeActive } from './become-active.js';
import { checkService } from '../bot/check-service.js';
import { guardInteractionBuild } from '../bot/guard-interaction-build.js';
import { createDiscordClient } from '../bot/client.js';
import { connect } from '../bot/connect.js';
import { InFlight } from '../bot/in-flight.js';
import { loadCommands } from '../bot/load-commands.js';
import { createRouter } from '../bot/router.js';
import { loadConfig, loadRole, secretValues, type Config } from '../config/bot.js';
import { DISCORD_API } from '../config/shared-fields.js';
import { EXIT_FAILURE } from '../core/exit-codes.js';
import { onStopSignal } from '../core/stop-on-signal.js';
import { drainOnSignal } from './drain-on-signal.js';
import { serveHealthPort } from '../hosting/health-only.js';
import type { Phase } from '../hosting/index.js';
import type { BotMetrics } from '../hosting/metrics.js';
import { componentHandlers } from '../interactions/index.js';
import { MemberNames } from '../bot/member-names.js';
import { ReplyGuard } from '../bot/reply-guard.js';
import { refuseWhileStopping } from '../bot/refuse-while-stopping.js';
import { processLogger } from './process-logger.js';
import { watchRateLimits } from '../core/discord-rate-limits.js';
import { startRealtime } from './realtime.js';
import { watchMembership } from '../runtime/membership.js';
import type { Servers } from '../servers/servers.js';
import { ServiceClients } from '../servers/service-clients.js';
import { setupPorts } from './setup-ports.js';
import { followSettingsChanges } from './settings-changes.js';
import type { StoreRoot } from '../store/index.js';
import { openServers } from './open-servers.js';
import type { Logger } from '../core/log.js';
import { startOrExit } from './start-failure.js';
import { watchGatewayConnection } from '../bot/gateway-connection.js';
import { resolveShards } from './resolve-shards.js';
import { formatShardIds } from '../shards/shard-ids.js';
import { InlineCallbacks } from '../bot/inline-callbacks.js';
import { ENDPOINT_CLOSE_MS, serveInteractions } from './interactions-endpoint.js';
import { startDashboardBeside, startMetrics } from './beside-the-bot.js';

async function main(): Promise<void> {
  const started = performance.now();
  // Builder validation was a large share of the bot's CPU under load (docs/performance.md). The
  // views' unit tests run with it on, and the e2e stand-in checks every payload against Discord's limits.
  disableValidators();
  const config = loadConfig();
  const logger = processLogger(config, secretValues(config));
  // Metrics are kept only when a host will read them (METRICS_PORT); prom-client is loaded only then.
  const metrics: BotMetrics | undefined =
    config.metricsPort === undefined ? undefined : new (await import('../hosting/metrics.js')).BotMetrics();
  const commands = await loadCommands(new URL('../../commands/', import.meta.url));
  const names = new MemberNames();
  const health = { phase: 'starting' as Phase };
  const healthPort = await serveHealthPort(config.healthPort, () => health.phase);
  // Nothing to drain until this process acts: a standby (or a start not yet done) just stops.
  const dropEarlyStop = onStopSignal((signal) => {
    logger.info({ signal }, 'stopped before acting');
    process.exit(0);
  });
  const { ownership, shards, lock } = await actForShards(config, logger, health);
  const inline = config.interactions ? new InlineCallbacks() : undefined;
  const client = createDiscordClient(config, ownership, inline);
  const { store, servers } = await openServers(config, logger);
  const clients = serviceClients(config, servers, logger, metrics);
  const { base, realtime, route, stopServers } = await startServers({
    config,
    logger,
    store,
    servers,
    clients,
    client,
    commands,
    names,
    ownership,
    metrics,
  });
  const inFlight = takeInteractions(client, { route, names, metrics, logger });
  // Interactions over HTTP wait for the servers' contexts, made once Discord is connected.
  const servingBegins = new Promise<void>((begun) =>
    client.once(Events.ClientReady, (ready) => {
      if (health.phase === 'starting') health.phase = 'ok';
      void realtime
        .begin()
        .catch((err: unknown) => logger.error({ err }, "could not start the servers' work"))
        .finally(begun);
      const ms = Math.round(performance.now() - started);
      const loaded = { user: ready.user.tag, guilds: ready.guilds.cache.size, shards, commands: [...commands.keys()] };
      logger.info({ ...loaded, ms }, 'ready');
    }),
  );
  const endClientWatch = watchClient(client, logger, metrics);
  const hosting = await startMetrics(config, { metrics, client, inFlight, store, phase: () => health.phase }, logger);
  const endpoint =
    inline && (await serveInteractions({ config, client, inline, logger, ready: servingBegins, handled: store }));
  const dashboard = await startDashboardBeside(config, { base, store, client, realtime, logger });
  dropEarlyStop();
  drainOnSignal({
    logger,
    inFlight,
    graceMs: config.shutdownGraceMs,
    stopping: () => (health.phase = 'stopping'),
    async then() {
      await endpoint?.close(ENDPOINT_CLOSE_MS);
      await dashboard?.close();
      await stopServers();
      // What was paced since the last summary line is logged, so a stop loses none of it.
      await endClientWatch();
      await store.close();
      // Last: a standby takes over the moment this is released, and this process no longer acts.
      await lock.release();
      await hosting?.close();
      await healthPort?.close();
    },
  });

  await connect(client, config.discord.token, config.discord.apiUrl ?? DISCORD_API, logger);
}

/**
 * The shards this process runs, and the store's lock for them: a standby waits here until the
 * process acting for them stops. Losing the lock later ends the process at once.
 */
async function actForShards(config: Config, logger: Logger, health: { phase: Phase }) {
  const ownership = await resolveShards(config);
  const shards = { count: ownership.count, ids: formatShardIds(ownership.ids) };
  logger.info({ shards }, 'shards this process runs');
  const lock = await becomeActive({
    config,
    shards: ownership,
    logger,
    phase: () => health.phase,
    setPhase: (next) => (health.phase = next),
    onLost: (err) => {
      // At once, with no drain: another process may already be acting. The supervisor starts this one
      // again, which waits as a standby if the other holds the store.
      logger.fatal({ err }, 'lost the store lock; exiting so that only one process acts');
      process.exit(EXIT_FAILURE);
    },
  });
  return { ownership, shards, lock };
}

/** Every server's runtime, and what follows their membership and (on PostgreSQL) their settings. */
async function startServers(parts: {
  config: Config;
  logger: Logger;
  store: StoreRoot;
  servers: Servers;
  clients: ServiceClients;
  client: Client;
  commands: Awaited<ReturnType<typeof loadCommands>>;
  names: MemberNames;
  ownership: Awaited<ReturnType<typeof resolveShards>>;
  metrics: BotMetrics | undefined;
}) {
  const { config, logger, store, servers, clients, client, commands, names, ownership, metrics } = parts;
  const setup = setupPorts({
    store,
    servers,
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
  const stopServers = async () => {
    stopWatching();
    await settingsChanges?.stop();
    await realtime.stop();
  };
  return { base, realtime, route, stopServers };
}

/** The gateway's interactions, each routed and tracked until answered; refused once the process stops. */
function takeInteractions(
  client: Client,
  {
    route,
    names,
    metrics,
    logger,
  }: { route: ReturnType<typeof createRouter>; names: MemberNames; metrics: BotMetrics | undefined; logger: Logger },
): InFlight {
  const inFlight = new InFlight();
  client.on(Events.InteractionCreate, (interaction) => {
    names.rememberFrom(interaction);
    if (interaction.isRepliable()) metrics?.interactionReceived(interaction.id);
    if (inFlight.accepting) inFlight.track(route(interaction));
    else void refuseWhileStopping(interaction, logger);
  });
  return inFlight;
}

/** Each server's service client, sharing the settings that are the bot's; one server from .env is checked at once. */
function serviceClients(config: Config, servers: Servers, logger: Logger, metrics: BotMetrics | undefined) {
  const { apiKey: _apiKey, appId: _appId, ...shared } = config.service;
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
  return clients;
}

/** The client's errors, warnings, gateway connection and rate limits, logged; returns what ends the watch. */
function watchClient(client: Client, logger: Logger, metrics: BotMetrics | undefined): () => Promise<void> {
  client.on(Events.Error, (err) => logger.error({ err }, 'discord client error'));
  client.on(Events.Warn, (warning) => logger.warn({ warning }, 'discord client warning'));
  const endGatewayWatch = watchGatewayConnection(client, logger);
  const rateLimits = watchRateLimits(client.rest, logger, metrics && ((kind) => metrics.discordRateLimited(kind)));
  guardInteractionBuild(client, logger);
  return async () => {
    endGatewayWatch();
    await client.destroy();
    rateLimits.close();
  };
}

/** ROLE=receiver runs the webhook receiver alone, without any of the bot's Discord or service settings. */
async function start(): Promise<void> {
  // The receiver alone loads none of the bot (nor it, the receiver's own metrics).
  if (loadRole() === 'receiver') return (await import('./receiver-role.js')).receiverRole();
  return main();
}

/** Starts the bot (or the receiver alone, ROLE=receiver); a failure to start exits with its code and the fix. */
export const startBot = (): void => startOrExit(start, 'The bot');
