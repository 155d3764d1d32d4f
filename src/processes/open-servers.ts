import type { Config } from '../config/bot.js';
import type { Logger } from '../core/log.js';
import { environmentServer } from '../servers/environment-server.js';
import { refuseUnopenableSecrets } from '../servers/sealing-keys.js';
import { Servers } from '../servers/servers.js';
import { openStore } from '../store/index.js';

/** The store, opened, and the servers it holds, loaded (an install from before many servers adopted). */
export async function openServers(config: Config, logger: Logger) {
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
  return { store, servers };
}
