import type { Client } from 'discord.js';
import type { Logger } from '../core/log.js';
import type { MessageView } from '../views/message.js';
import { discordPoster, messageBody } from './poster.js';

/**
 * Posts a reply's audit message. A failure here must not undo or hide a reply that was posted, so it
 * is logged (with the reply id, to reconcile by hand) and swallowed.
 */
export async function postAuditMessage(
  client: Client,
  channelId: string,
  view: MessageView,
  logger: Logger,
  context: Record<string, unknown>,
): Promise<void> {
  await discordPoster(client.rest).audit(channelId, messageBody(view), (err) =>
    logger.error({ err, channelId, ...context }, 'could not post the reply audit message'),
  );
}
