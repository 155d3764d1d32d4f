import { disableValidators, Events, type Interaction } from 'discord.js';
import { InFlight } from '../bot/in-flight.js';
import { InlineCallbacks } from '../bot/inline-callbacks.js';
import { guardInteractionBuild } from '../bot/guard-interaction-build.js';
import { refuseWhileStopping } from '../bot/refuse-while-stopping.js';
import { createRouter } from '../bot/router.js';
import { loadConfig, secretValues } from '../config/bot.js';
import { ConfigError } from '../config/load.js';
import { processLogger } from './process-logger.js';
import { drainOnSignal } from './drain-on-signal.js';
import { serveHealthPort } from '../hosting/health-only.js';
import type { Phase } from '../hosting/index.js';
import { componentHandlers } from '../interactions/index.js';
import { gatewaylessParts } from './gatewayless-parts.js';
import { ENDPOINT_CLOSE_MS, serveInteractions } from './interactions-endpoint.js';
import { restView } from '../dashboard/bot-view.js';
import { startOrExit } from './start-failure.js';

async function main(): Promise<void> {
  // As in npm start: the views' unit tests and the stand-in check payloads instead.
  disableValidators();
  const config = loadConfig();
  if (!config.interactions)
    throw new ConfigError([
      'INTERACTIONS_PORT is missing: npm run interactions serves only the Interactions Endpoint URL, on this port',
    ]);
  const logger = processLogger(config, secretValues(config));
  let phase: Phase = 'starting';
  const healthPort = await serveHealthPort(config.healthPort, () => phase);
  const inline = new InlineCallbacks();
  // Never logged in: its REST answers interactions and posts follow-ups; no gateway session is opened.
  const { commands, store, servers, client, names, base, contexts, close } = await gatewaylessParts(
    config,
    logger,
    inline,
  );
  const route = createRouter({
    commands,
    components: componentHandlers,
    base,
    contextFor: (guildId) => contexts.get(guildId),
    onlyGuildId: config.discord.guildId,
  });
  // No gateway fills the server cache: /setup, which checks channels, roles and the bot's permissions,
  // reads its server over REST first (kept 30 s), as the dashboard run alone does.
  const view = await restView(client);
  const readsServer = (interaction: Interaction) =>
    interaction.isChatInputCommand() && interaction.commandName === 'setup';
  const inFlight = new InFlight();
  client.on(Events.InteractionCreate, (interaction) => {
    names.rememberFrom(interaction);
    const { guildId } = interaction;
    const handled = async () => {
      if (guildId !== null) {
        // Unread (Discord failing), the command says it cannot see the server; it is not left unanswered.
        const server = readsServer(interaction) ? view.guild(guildId).catch(() => undefined) : undefined;
        await Promise.all([contexts.prepare(guildId), server]);
      }
      await route(interaction);
    };
    if (inFlight.accepting) inFlight.track(handled());
    else void refuseWhileStopping(interaction, logger);
  });
  guardInteractionBuild(client, logger);
  const endpoint = await serveInteractions({
    config,
    client,
    inline,
    logger,
    ready: Promise.resolve(),
    handled: store,
  });
  phase = 'ok';
  logger.info({ commands: [...commands.keys()], servers: servers.known().length }, 'ready for interactions over HTTP');

  drainOnSignal({
    logger,
    inFlight,
    graceMs: config.shutdownGraceMs,
    stopping: () => (phase = 'stopping'),
    async then() {
      await endpoint?.close(ENDPOINT_CLOSE_MS);
      await close();
      await healthPort?.close();
    },
  });
}

/** Starts it; a failure to start exits with its code and the fix. */
export const start = (): void => startOrExit(main, 'The interactions endpoint');
