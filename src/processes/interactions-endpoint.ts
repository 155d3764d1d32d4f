import type { Client } from 'discord.js';
import type { Config } from '../config/bot.js';
import type { InlineCallbacks } from '../bot/inline-callbacks.js';
import type { Logger } from '../core/log.js';
import { deliverTo } from '../http-interactions/deliver.js';
import { startInteractionsEndpoint, type InteractionsEndpoint } from '../http-interactions/endpoint.js';
import { HandledOnce } from '../http-interactions/handled-once.js';
import type { HandledInteractionStore } from '../store/index.js';

/** After the drain, the HTTP answers still being written get this long. */
export const ENDPOINT_CLOSE_MS = 1_000;

/**
 * Discord's Interactions Endpoint URL for `npm start` and `npm run interactions` alike: each
 * verified interaction goes to `client`'s interactionCreate listeners (the router) once `ready`.
 */
export async function serveInteractions(deps: {
  config: Config;
  client: Client;
  inline: InlineCallbacks;
  logger: Logger;
  ready: Promise<void>;
  /** Where handled interactions are remembered, so a replayed request runs nothing (the store). */
  handled: HandledInteractionStore;
}): Promise<InteractionsEndpoint | undefined> {
  const { config, client, inline, logger, ready } = deps;
  if (!config.interactions) return undefined;
  const deliver = deliverTo(client, inline, ready);
  const handled = new HandledOnce(deps.handled, logger);
  const endpoint = await startInteractionsEndpoint({
    ...config.interactions,
    logger,
    deliver,
    once: (guildId, id, until) => handled.first(guildId, id, until),
  });
  logger.info({ url: endpoint.url }, 'interactions endpoint listening');
  return endpoint;
}
