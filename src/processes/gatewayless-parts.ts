import { createDiscordClient } from '../bot/client.js';
import type { InlineCallbacks } from '../bot/inline-callbacks.js';
import { loadCommands } from '../bot/load-commands.js';
import { MemberNames } from '../bot/member-names.js';
import { ReplyGuard } from '../bot/reply-guard.js';
import type { Config } from '../config/bot.js';
import type { Logger } from '../core/log.js';
import { ServiceClients } from '../servers/service-clients.js';
import { openServers } from './open-servers.js';
import { serverContexts } from './server-contexts.js';
import { setupPorts } from './setup-ports.js';

/**
 * What a process with no gateway session starts from (`npm run interactions`, `npm run dashboard`):
 * the commands, the store, every server's settings and service client, a discord.js client that is
 * never logged in (REST only; `inline` answers interactions in the HTTP response), and the handlers'
 * contexts, built and never started: the gateway processes run every server's work.
 */
export async function gatewaylessParts(config: Config, logger: Logger, inline?: InlineCallbacks) {
  const commands = await loadCommands(new URL('../../commands/', import.meta.url));
  const { store, servers } = await openServers(config, logger);
  const { apiKey: _apiKey, appId: _appId, ...shared } = config.service;
  const clients = new ServiceClients({
    shared: { ...shared, onAttempt: (attempt) => logger.debug({ attempt }, 'service request') },
    credentials: (guildId) => servers.credentials(guildId),
  });
  const client = createDiscordClient(config, { count: 1, ids: [0] }, inline);
  client.rest.setToken(config.discord.token);
  const names = new MemberNames();
  const setup = setupPorts({
    store,
    servers,
    clients,
    commands: commands.values(),
    // The gateway process that owns the server checks milestones on its own schedule (EXPIRY_CHECK_SECONDS).
    milestonesChanged: () => undefined,
  });
  const base = { config, logger, replyGuard: new ReplyGuard(), now: () => new Date(), servers, setup };
  const contexts = serverContexts({ config, servers, clients, client, root: store, base, logger, names });
  /** What the process stops last: the client, then the store. */
  const close = async () => {
    await client.destroy();
    await store.close();
  };
  return { commands, store, servers, client, names, base, contexts, close };
}
