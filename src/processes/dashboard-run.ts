import { disableValidators } from 'discord.js';
import { loadConfig, secretValues } from '../config/bot.js';
import { ConfigError } from '../config/load.js';
import { processLogger } from './process-logger.js';
import { restView } from '../dashboard/bot-view.js';
import { drainOnSignal } from './drain-on-signal.js';
import { serveHealthPort } from '../hosting/health-only.js';
import type { Phase } from '../hosting/index.js';
import { startDashboard } from './dashboard-server.js';
import { gatewaylessParts } from './gatewayless-parts.js';
import { startOrExit } from './start-failure.js';

async function main(): Promise<void> {
  disableValidators();
  const config = loadConfig();
  if (!config.dashboard)
    throw new ConfigError(['DASHBOARD_PORT is missing: npm run dashboard serves only the web dashboard, on this port']);
  const logger = processLogger(config, secretValues(config));
  let phase: Phase = 'starting';
  const healthPort = await serveHealthPort(config.healthPort, () => phase);
  // Never logged in: servers, channels, roles and members are read over REST, no gateway session opened.
  const parts = await gatewaylessParts(config, logger);
  const { store, servers, client, base, contexts } = parts;
  const view = await restView(client);
  // The contexts are never started: a reply is posted here, its feed post redrawn by the gateway.
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
    graceMs: config.shutdownGraceMs,
    stopping: () => (phase = 'stopping'),
    async then() {
      await dashboard?.close();
      await parts.close();
      await healthPort?.close();
    },
  });
}

/** Starts it; a failure to start exits with its code and the fix. */
export const start = (): void => startOrExit(main, 'The dashboard');
