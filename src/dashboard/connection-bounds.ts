import type { Server } from 'node:http';
import { dashboardConnectionCap } from '../config/dashboard-limits.js';
import type { Logger } from '../core/log.js';
import { softOpenFileLimit } from '../core/open-file-limit.js';
import { TallyLog } from '../core/tally-log.js';

type Cut = 'connection_cap' | 'timeout';

export interface ConnectionBounds {
  readonly maxConnections: number;
  /** The soft open-file limit the cap was taken from; undefined where it could not be read. */
  readonly openFiles: number | undefined;
  close(): void;
}

/**
 * Caps the dashboard's connections below the process's open-file limit (past the cap Node accepts
 * and closes at once) and counts what is cut, one line a minute at most, so a flood cannot fill the log.
 */
export function boundConnections(server: Server, setting: number | undefined, logger: Logger): ConnectionBounds {
  const openFiles = softOpenFileLimit();
  const { maxConnections, loweredFrom } = dashboardConnectionCap(setting, openFiles);
  server.maxConnections = maxConnections;
  if (loweredFrom !== undefined)
    logger.warn(
      { setting: loweredFrom, openFiles, maxConnections },
      'DASHBOARD_MAX_CONNECTIONS is above a quarter of the open-file limit (ulimit -n): the dashboard keeps fewer; raise the limit for more',
    );
  const cuts = new TallyLog<Cut>(logger, { level: 'warn', msg: 'dashboard connections cut' });
  server.on('drop', () => cuts.count('connection_cap'));
  // Fastify's own listener answers 408 and closes; this one only counts.
  server.on('clientError', (error: NodeJS.ErrnoException) => {
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') cuts.count('timeout');
  });
  return { maxConnections, openFiles, close: () => cuts.close() };
}
