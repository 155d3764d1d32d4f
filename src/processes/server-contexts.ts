import type { BotContext } from '../runtime/context.js';
import { discordPoster } from '../bot/poster.js';
import { serverRuntimeOf, type ProcessParts } from './server-runtime-of.js';
import { serverPasses } from '../runtime/server-passes.js';

/**
 * How long a server's context serves before its settings are read from the store again: another
 * process (a gateway one, or another behind the load balancer) may have changed them with /setup.
 */
export const CONTEXT_FRESH_MS = 30_000;

/**
 * The contexts handlers get, for a process that answers interactions and runs no server's work
 * (`npm run interactions`): each server's runtime is built and never started, so no lane, poll,
 * schedule or role pass runs here. What a handler queues (a reply to post, a milestone) is in the
 * store, where the gateway process that owns the server picks it up.
 */
export function serverContexts(deps: ProcessParts & { now?: () => number }): ServerContexts {
  const { config, servers, client, root, logger } = deps;
  const now = deps.now ?? Date.now;
  const poster = discordPoster(client.rest);
  // Stopped at once: firing, reminding and checking are the gateway processes' work; what a handler
  // offers them here (a vote's end) is written to the store and read there.
  const passes = serverPasses({ store: root, logger, config });
  void passes.stop();
  const made = new Map<string, { context: BotContext | undefined; at: number }>();
  servers.onChange((guildId) => made.delete(guildId));
  const build = (guildId: string): BotContext | undefined => {
    if (!servers.isConfigured(guildId)) return undefined;
    return serverRuntimeOf({ ...deps, poster, passes }, guildId, 0).context;
  };
  return {
    async prepare(guildId) {
      const kept = made.get(guildId);
      if (kept && now() - kept.at < CONTEXT_FRESH_MS) return;
      try {
        await servers.reload(guildId);
      } catch (err) {
        // The settings last read still serve; the next interaction tries again.
        logger.warn({ err, guildId }, "could not read the server's settings again; answering with those last read");
        if (kept) return;
      }
      made.set(guildId, { context: build(guildId), at: now() });
    },
    get: (guildId) => made.get(guildId)?.context,
  };
}

export interface ServerContexts {
  /** Reads the server's settings again when its context is older than CONTEXT_FRESH_MS. */
  prepare(guildId: string): Promise<void>;
  /** The context prepared last; undefined for a server that is not set up. */
  get(guildId: string): BotContext | undefined;
}
