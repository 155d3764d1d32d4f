/*
 * What a stranger who reaches the dashboard's port can hold, and for how long. A browser, or the
 * reverse proxy in front of the dashboard, sends a request's headers in one packet and a form of a
 * few KB right after: every bound below leaves a real visitor untouched and cuts anything slower.
 */

/** From accepting a connection (or the end of the last answer on it) to the end of the request's headers. */
export const DASHBOARD_HEADERS_TIMEOUT_MS = 3_000;

/** The whole request, body included: a form is at most 64 KB, seconds even on a poor mobile link. */
export const DASHBOARD_REQUEST_TIMEOUT_MS = 5_000;

/** An idle kept-alive connection: Node's own default; Fastify's 72 s held a slot per idle browser. */
export const DASHBOARD_KEEP_ALIVE_MS = 5_000;

/** How often Node sweeps for connections past those timeouts (its default, 30 s, let them linger). */
export const DASHBOARD_CONNECTIONS_CHECK_MS = 500;

/** The open-file limit assumed where the process's own cannot be read: the most common one. */
const ASSUMED_OPEN_FILES = 1_024;

/** Enough for every admin's browser and a proxy's pool; more only by DASHBOARD_MAX_CONNECTIONS. */
const DEFAULT_CEILING = 1_024;

export interface ConnectionCap {
  readonly maxConnections: number;
  /** DASHBOARD_MAX_CONNECTIONS when it was above the share of the open-file limit and lowered. */
  readonly loweredFrom?: number;
}

/**
 * Connections the dashboard keeps: never more than a quarter of the process's open-file limit
 * (`ulimit -n`). In `npm start` the receiver (512 by default) shares that limit, and Discord, the
 * store and /healthz need the rest; a dashboard full of held sockets must not take their descriptors.
 */
export function dashboardConnectionCap(setting: number | undefined, openFiles: number | undefined): ConnectionCap {
  const share = Math.max(1, Math.floor((openFiles ?? ASSUMED_OPEN_FILES) / 4));
  if (setting === undefined) return { maxConnections: Math.min(DEFAULT_CEILING, share) };
  return setting <= share ? { maxConnections: setting } : { maxConnections: share, loweredFrom: setting };
}
