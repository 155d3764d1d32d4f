import { disableValidators } from 'discord.js';
import { readArgs } from '../core/cli-args.js';
import { createDiscordClient } from '../bot/client.js';
import { InFlight } from '../bot/in-flight.js';
import { installProcessGuards } from '../bot/process-guards.js';
import { loadCommands } from '../bot/load-commands.js';
import { MemberNames } from '../bot/member-names.js';
import { ReplyGuard } from '../bot/reply-guard.js';
import { loadConfig, secretValues } from '../config/bot.js';
import { ConfigError } from '../config/load.js';
import { createLogger } from '../core/log.js';
import { restView } from '../dashboard/bot-view.js';
import { drainOnSignal } from './drain-on-signal.js';
import { serveHealthPort } from '../hosting/health-only.js';
import type { Phase } from '../hosting/index.js';
import { environmentServer } from '../servers/environment-server.js';
import { refuseUnopenableSecrets } from '../servers/sealing-keys.js';
import { Servers } from '../servers/servers.js';
import { ServiceClients } from '../servers/service-clients.js';
import { openStore } from '../store/index.js';
import { startDashboard } from './dashboard-server.js';
import { serverContexts } from './server-contexts.js';
import { setupPorts } from './setup-ports.js';
import { exitOnStartFailure } from './start-failure.js';

const USAGE = `Usage: npm run dashboard

Serves the web dashboard alone (docs/dashboard.md) at DASHBOARD_PUBLIC_URL, listening on
DASHBOARD_HOST:DASHBOARD_PORT. It never connects to Discord's gateway and runs no server's work:
it reads servers over Discord's REST API and shares the store (DATABASE_URL) with the gateway
processes (npm start). Reads the bot's settings (see .env.example); SIGINT or SIGTERM stops it.
Exit codes: 0 after a clean stop, 78 when a setting must change, 1 when starting again may work.

Options:
  -h, --help  show this text (reads no settings, connects to nothing)
`;

async function main(): Promise<void> {
  disableValidators();
  const config = loadConfig();
  if (!config.dashboard)
    throw new ConfigError(['DASHBOARD_PORT is missing: npm run dashboard serves only the web dashboard, on this port']);
  const logger = createLogger(config.logLevel, secretValues(config), undefined, config.logFormat);
  let phase: Phase = 'starting';
  const healthPort = await serveHealthPort(config.healthPort, () => phase);
  const commands = await loadCommands(new URL('../../commands/', import.meta.url));
  const store = await openStore(config.database, undefined, { poolSize: config.databasePoolSize });
  logger.info({ backend: store.backend, driver: store.driver }, 'store open');
  await refuseUnopenableSecrets(store, config.secrets);
  const servers = new Servers(store, config.secrets, environmentServer(config));
  await servers.load();
  const { apiKey: _apiKey, appId: _appId, ...shared } = config.service;
  const clients = new ServiceClients({
    shared: { ...shared, onAttempt: (attempt) => logger.debug({ attempt }, 'service request') },
    credentials: (guildId) => servers.credentials(guildId),
  });
  // Never logged in: servers, channels, roles and members are read over REST, no gateway session opened.
  const client = createDiscordClient(config, { count: 1, ids: [0] });
  client.rest.setToken(config.discord.token);
  const view = await restView(client);
  const setup = setupPorts({
    store,
    clients,
    commands: commands.values(),
    // The gateway process that owns the server checks milestones on its own schedule.
    milestonesChanged: () => undefined,
  });
  const base = {
    config,
    logger,
    replyGuard: new ReplyGuard(),
    names: new MemberNames(),
    now: () => new Date(),
    servers,
    setup,
  };
  installProcessGuards(logger);
  // Built and never started, as for `npm run interactions`: a reply is posted here, its feed post redrawn by the gateway.
  const contexts = serverContexts({ config, servers, clients, client, root: store, base, logger, names: base.names });
  const dashboard = await startDashboard({
    config,
    base,
    store,
    view,
    logger,
    // /setup may have changed the server in another process: its settings are read again for each page.
    refresh: (guildId) => servers.reload(guildId),
    context: async (guildId) => {
      await contexts.prepare(guildId);
      return contexts.get(guildId);
    },
  });
  phase = 'ok';
  logger.info({ servers: servers.known().length }, 'ready for the dashboard');

  drainOnSignal({
    logger,
    inFlight: new InFlight(),
    graceMs: config.shutdownGraceMs,
    stopping: () => (phase = 'stopping'),
    async then() {
      await dashboard?.close();
      await client.destroy();
      await store.close();
      await healthPort?.close();
    },
  });
}

if (readArgs(USAGE, {})) main().catch((error: unknown) => exitOnStartFailure(error, 'The dashboard'));
