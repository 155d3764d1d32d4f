import type { Client, MessageCreateOptions } from 'discord.js';
import type { Logger } from '../log.js';

/**
 * Posts to the audit channel. A failure here must not undo or hide a reply that was posted, so it
 * is logged (with the reply id, to reconcile by hand) and swallowed.
 */
export async function postAuditMessage(
  client: Client,
  channelId: string,
  message: MessageCreateOptions,
  logger: Logger,
  context: Record<string, unknown>,
): Promise<void> {
  try {
    const channel = await client.channels.fetch(channelId);
    if (!channel?.isSendable()) throw new Error(`channel ${channelId} is not a text channel the bot can post in`);
    await channel.send(message);
  } catch (err) {
    logger.error({ err, channelId, ...context }, 'could not post the reply audit message');
  }
}
