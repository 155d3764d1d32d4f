import type { ComponentHandler } from '../bot/handlers.js';

/** Every button and modal handler, each keyed by the custom-id prefix that is its file name. */
export const componentHandlers: readonly ComponentHandler[] = [];
