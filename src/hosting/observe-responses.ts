import type { Client } from 'discord.js';
import { onCallbackAnswered } from '../bot/reply-fast.js';
import type { BotMetrics } from './metrics.js';

const CALLBACK_ROUTE = '/interactions/:id/:token/callback';
const INTERACTION_ID = /^\/interactions\/(\d+)\//;

/**
 * Times each interaction's first response from Discord's answers to the bot's callbacks.
 * discord.js hands listeners a clone of every response; its body is cancelled at once so the
 * clone holds no memory. The path carries the interaction token: only the id is read from it.
 */
export function observeInteractionResponses(client: Client, metrics: BotMetrics): void {
  client.rest.on('response', (request, response) => {
    const body = response.body as { cancel?: () => Promise<void> } | null;
    if (typeof body?.cancel === 'function') body.cancel().catch(() => undefined);
    if (request.route !== CALLBACK_ROUTE) return;
    const id = INTERACTION_ID.exec(request.path)?.[1];
    if (id === undefined) return;
    const type = (request.data.body as { type?: unknown } | undefined)?.type;
    metrics.interactionCallback(id, typeof type === 'number' ? type : undefined, response.ok);
  });
  // Plain answers go to the callback route without discord.js's REST client (reply-fast.ts).
  onCallbackAnswered(client, (id, type, accepted) => metrics.interactionCallback(id, type, accepted));
}
