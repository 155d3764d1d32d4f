/*
 * What a stranger who reaches the receiver's port can hold, and for how long. Guilds sends one small
 * JSON body per event, all at once, and gives up on an answer after 5 s: every bound below leaves a
 * real delivery untouched and cuts anything slower within seconds.
 */

/** Guilds' bodies are small; anything larger is refused before it is read in full. */
export const WEBHOOK_MAX_BODY_BYTES = 64 * 1024;

/**
 * Concurrent connections the receiver keeps; past it, new ones are closed at once. Guilds answers
 * in milliseconds, so even a 1,000-event burst holds a few dozen. 512 stays well under the most
 * common open-file limit (1,024) with room left for Discord's gateway and REST, the store and
 * /healthz, so a flood of idle connections can no longer starve the rest of the process.
 */
export const DEFAULT_MAX_CONNECTIONS = 512;

/** From accepting a connection to the end of the request's headers: one packet for a real sender. */
export const HEADERS_TIMEOUT_MS = 2_000;

/** The whole request, body included; with the store's second it still answers inside Guilds' 5 s. */
export const REQUEST_TIMEOUT_MS = 3_000;

/** How often Node sweeps for connections past those timeouts (its default, 30 s, let them linger). */
export const CONNECTIONS_CHECK_MS = 500;

/**
 * How long a delivery waits for the store before it is answered 503, which Guilds retries. The
 * issue asks for an answer within 2 s; a healthy store takes milliseconds.
 */
export const STORE_DEADLINE_MS = 1_000;

/**
 * Writes still waiting on the store past which a delivery is answered 503 at once instead of
 * queueing behind them: a stalled store then holds a bounded pile, not one per delivery.
 */
export const MAX_PENDING_WRITES = 100;

/** Sent with a 503. Guilds keeps its own schedule (1 s doubling); other senders are asked to wait. */
export const RETRY_AFTER_SECONDS = 5;

/** Refusals are logged as one line per reason per this interval (and at close). */
export const REFUSAL_LOG_INTERVAL_MS = 60_000;
