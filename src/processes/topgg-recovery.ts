import { RequestWindow } from '../core/request-window.js';
import { TopggApi } from '../lists/topgg-api.js';
import type { ServerRuntime } from '../runtime/running-server.js';
import { TopggRecovery } from '../runtime/topgg-recovery.js';
import type { ProcessParts } from './server-runtime-of.js';

/**
 * Top.gg's limit on its stricter routes, 60 requests a minute, kept for the whole process (every
 * server's token together), with a second's margin for the two clocks: a 429 blocks a token an hour.
 */
const TOPGG_REQUESTS_PER_WINDOW = 60;
const TOPGG_WINDOW_MS = 61_000;

/** The process's reads of Top.gg votes missed while down, for the servers it runs. */
export function topggRecovery(
  deps: Pick<ProcessParts, 'config' | 'servers' | 'root' | 'logger'>,
  runtimeOf: (guildId: string) => ServerRuntime | undefined,
) {
  const { config, servers, root, logger } = deps;
  const window = new RequestWindow(TOPGG_REQUESTS_PER_WINDOW, TOPGG_WINDOW_MS);
  return new TopggRecovery({
    listings: servers.listings,
    store: root,
    api: new TopggApi({ baseUrl: config.topgg.apiUrl, window }),
    runtimeOf,
    logger,
  });
}
