import type { Config } from '../config/bot.js';
import type { Logger } from '../core/log.js';
import type { BotView } from '../dashboard/deps.js';
import { serveDashboard, type ServedDashboard } from '../dashboard/serve.js';
import type { BaseContext, BotContext } from '../runtime/context.js';
import type { StoreRoot } from '../store/index.js';

/**
 * The dashboard for `npm start` (the gateway's view) and `npm run dashboard` (REST reads), from the
 * same parts the handlers get. Loaded only when DASHBOARD_PORT is set: a bot without it never loads fastify.
 */
export async function startDashboard(parts: {
  config: Config;
  base: BaseContext;
  store: StoreRoot;
  view: BotView;
  logger: Logger;
  /** Reads a server's settings again before a page shows them (another process may have changed them). */
  refresh: (guildId: string) => Promise<void>;
  /** A set-up server's handler context: the inbox's replies and the stats are made through it. */
  context: (guildId: string) => Promise<BotContext | undefined>;
}): Promise<ServedDashboard | undefined> {
  const { config, store, logger } = parts;
  if (!config.dashboard) return undefined;
  const served = await serveDashboard({
    settings: config.dashboard,
    clientId: config.discord.clientId,
    apiUrl: config.discord.apiUrl,
    base: parts.base,
    view: parts.view,
    refresh: parts.refresh,
    unanswered: (guildId, limit, offset) => store.forServer(guildId).unansweredReviews(limit, offset),
    signOuts: store,
    review: (guildId, reviewId) => store.forServer(guildId).feedPost(reviewId),
    context: parts.context,
    logger,
  });
  logger.info(
    {
      url: served.url,
      publicUrl: config.dashboard.publicUrl,
      maxConnections: served.maxConnections,
      openFiles: served.openFiles,
    },
    'dashboard listening',
  );
  return served;
}
