/**
 * Discord's first-response window is 3 s from when it made the interaction; deferring this long
 * after leaves room for network latency.
 */
export const DEFER_AFTER_MS = 1_800;

/**
 * Past this, counted from the interaction's creation, an interaction over HTTP with no callback yet
 * is deferred by the endpoint itself: after the handlers' own deferral, still inside Discord's 3 s.
 */
export const INLINE_DEADLINE_MS = DEFER_AFTER_MS + 700;
