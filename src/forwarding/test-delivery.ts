import { randomUUID } from 'node:crypto';
import { sendForward, type Sent, type SendOptions } from './send.js';

/**
 * `/setup forward test`: one signed `webhook.test` delivery, sent now through the same checks as
 * every vote (https, the address judged, no redirect), and how it went. Never stored nor retried:
 * the admin reads the answer.
 */
export function sendTestDelivery(
  destination: { guildId: string; url: string; secret: string },
  options: SendOptions,
  at = Date.now(),
): Promise<Sent> {
  const id = randomUUID();
  const body = JSON.stringify({
    type: 'webhook.test',
    id,
    data: { guild_id: destination.guildId, sent_at: new Date(at).toISOString() },
  });
  return sendForward({ url: destination.url, secret: destination.secret, body, deliveryId: id, at }, options);
}
