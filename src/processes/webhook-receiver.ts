import type { WebhookSettings } from '../config/shared-fields.js';
import type { DatabaseTarget } from '../store/database-url.js';
import type { Logger } from '../core/log.js';
import type { Servers } from '../servers/servers.js';
import type { StoreRoot } from '../store/index.js';
import type { DeliveryLog } from '../webhooks/delivery-log.js';
import type { EventInbox } from '../webhooks/event-inbox.js';
import { EventWriter } from '../webhooks/event-writer.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import type { RefusalReason } from '../webhooks/refusals.js';
import { SharedTokens } from '../webhooks/shared-tokens.js';
import { webhookTargets } from '../webhooks/targets.js';

export interface WebhookReceiverParts {
  webhook: WebhookSettings;
  /** On PostgreSQL other processes write the servers' tokens, so they are read from the store again. */
  database: { kind: DatabaseTarget['kind'] };
  servers: Servers;
  /** Where deliveries are stored, grouped by an EventWriter. */
  store: Pick<StoreRoot, 'addEvents'>;
  logger: Logger;
  /** The servers' delivery log (/setup status), owned by the caller: a bot's handling writes to it too. */
  deliveries: DeliveryLog;
  onRefused?: (reason: RefusalReason) => void;
  /** Woken after a delivery is stored and answered. */
  inbox: EventInbox;
}

/**
 * Guilds' webhook receiver, as a bot (ROLE=all) and a receiver process (ROLE=receiver) both run it:
 * `<path>/<server id>` for each server with its own token, and in single-server mode the plain path
 * with WEBHOOK_TOKEN; tokens from the shared store on PostgreSQL, else from the servers' cache.
 */
export function startWebhookReceiver(parts: WebhookReceiverParts): Promise<Receiver> {
  const { webhook, servers } = parts;
  const single = servers.environment;
  const shared = parts.database.kind === 'postgres' ? new SharedTokens(servers) : undefined;
  return startReceiver({
    ...webhook,
    targets: webhookTargets({
      path: webhook.path,
      serverToken: (guildId) =>
        shared ? shared.tokenFor(guildId) : servers.isConfigured(guildId) ? servers.webhookToken(guildId) : undefined,
      single: single && { guildId: single.guildId, token: webhook.token },
    }),
    store: new EventWriter(parts.store),
    logger: parts.logger,
    deliveries: parts.deliveries,
    onRefused: parts.onRefused,
    inbox: parts.inbox,
  });
}
