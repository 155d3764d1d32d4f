import type { Client } from 'discord.js';
import type { Logger } from '../core/log.js';

interface InteractionAction {
  handle(data: { id?: unknown }): unknown;
}

/**
 * An INTERACTION_CREATE that discord.js itself cannot turn into an interaction (a malformed
 * permission string, a modal without components) throws inside the library, before any listener
 * of ours runs, and surfaces as an unhandled rejection with no interaction id. This catches it
 * where it is built and logs one warn line with the interaction id instead. It wraps discord.js's
 * own (undocumented) action handler, so it checks the handler is there and does nothing if not.
 */
export function guardInteractionBuild(client: Client, logger: Logger): boolean {
  const action = (client as unknown as { actions?: { InteractionCreate?: InteractionAction } }).actions
    ?.InteractionCreate;
  if (typeof action?.handle !== 'function') return false;
  const handle = action.handle.bind(action);
  action.handle = (data) => {
    try {
      return handle(data);
    } catch (error) {
      logger.warn(
        {
          interactionId: typeof data?.id === 'string' ? data.id : undefined,
          error: (error as Error)?.message ?? String(error),
        },
        'interaction discord.js could not read; not answered',
      );
      return undefined;
    }
  };
  return true;
}
