import type { WebhookSettings } from '../config/shared-fields.js';
import type { DatabaseTarget } from '../store/database-url.js';
import type { Logger } from '../core/log.js';
import type { Servers } from '../servers/servers.js';
import { listenForNotifications } from '../store/inbox-listener.js';
import type { StoreRoot } from '../store/index.js';
import { SERVERS_CHANNEL } from '../store/servers-channel.js';
import type { DeliveryLog } from '../webhooks/delivery-log.js';
import type { EventInbox } from '../webhooks/event-inbox.js';
import { EventWriter } from '../webhooks/event-writer.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import type { RefusalReason } from '../webhooks/refusals.js';
import { KnownServers } from '../webhooks/known-servers.js';
import { SharedTokens } from '../webhooks/shared-tokens.js';
import { webhookTargets } from '../webhooks/targets.js';
import { graceMs } from '../streaks/streak.js';
import { KeyCheck } from '../vote-api/key-check.js';
import { VoteApi } from '../vote-api/vote-api.js';

export interface WebhookReceiverParts {
  webhook: WebhookSettings;
  /** On PostgreSQL other processes write the servers' tokens, so they are read from the store again. */
  database: DatabaseTarget;
  servers: Servers;
  /** Where deliveries are stored, grouped by an EventWriter; on PostgreSQL, which servers take them. */
  store: Pick<StoreRoot, 'addEvents' | 'webhookServerIds' | 'apiKeyByHash' | 'forServer'>;
  logger: Logger;
  /** The servers' delivery log (/setup status), owned by the caller: a bot's handling writes to it too. */
  deliveries: DeliveryLog;
  onRefused?: (reason: RefusalReason) => void;
  /** Woken after a delivery is stored and answered. */
  inbox: EventInbox;
}

/** Its application_name in pg_stat_activity. */
const SERVERS_LISTENER_NAME = 'vote-review-bot servers listener';

/**
 * Guilds' webhook receiver, as a bot (ROLE=all) and a receiver process (ROLE=receiver) both run it:
 * `<path>/<server id>` for each server with its own token, and in single-server mode the plain path
 * with WEBHOOK_TOKEN; tokens from the shared store on PostgreSQL, else from the servers' cache.
 */
export async function startWebhookReceiver(parts: WebhookReceiverParts): Promise<Receiver> {
  const { webhook, servers, database } = parts;
  const single = servers.environment;
  const shared = database.kind === 'postgres' ? await sharedTokens(parts, database.url) : undefined;
  const receiver = await startReceiver({
    ...webhook,
    targets: webhookTargets({
      path: webhook.path,
      serverToken: (guildId) =>
        shared
          ? shared.tokens.tokenFor(guildId)
          : servers.isConfigured(guildId)
            ? servers.webhookToken(guildId)
            : undefined,
      // Listings are read with the record: from memory, or on PostgreSQL from the store when stale.
      listing: async (guildId, site) =>
        !shared || (await shared.tokens.fresh(guildId)) ? servers.listings.checkFor(guildId, site) : undefined,
      single: single && { guildId: single.guildId, token: webhook.token },
    }),
    store: new EventWriter(parts.store),
    logger: parts.logger,
    deliveries: parts.deliveries,
    onRefused: parts.onRefused,
    inbox: parts.inbox,
    api: webhook.api && voteApi(parts, webhook.api.keys, shared?.tokens),
  });
  return {
    url: receiver.url,
    async close() {
      await receiver.close();
      await shared?.stop();
    },
  };
}

/**
 * The vote API on the receiver's port (API_ENABLED): store keys of every server, and in single-server
 * mode API_KEYS bound to its one server. A server's streak grace is read as its token is: on
 * PostgreSQL from the store again once stale, since /setup may run in another process.
 */
function voteApi(parts: WebhookReceiverParts, keys: readonly string[], shared: SharedTokens | undefined): VoteApi {
  const { servers, store } = parts;
  const single = servers.environment;
  return new VoteApi({
    keys: new KeyCheck({ store, single: single && { guildId: single.guildId, keys } }),
    ledger: (guildId) => store.forServer(guildId),
    graceMs: async (guildId) => {
      if (shared) await shared.fresh(guildId);
      return servers.settings(guildId)?.streakGraceMs ?? graceMs(undefined);
    },
    logger: parts.logger,
  });
}

/**
 * On PostgreSQL, tokens read from the store, for the servers that take deliveries only: that set is
 * kept by the store's notifications (a /setup in any process; its record is then read again at once)
 * and by this process's own /setup.
 */
async function sharedTokens(
  parts: WebhookReceiverParts,
  url: string,
): Promise<{ tokens: SharedTokens; stop(): Promise<void> }> {
  const { logger, servers } = parts;
  const known = new KnownServers({ store: parts.store, logger, alwaysTakes: servers.environment?.guildId });
  const tokens = new SharedTokens(servers, { known });
  const heard = (guildId: string) => {
    known.heard(guildId);
    tokens.stale(guildId);
  };
  servers.onChange(heard);
  await known.start();
  const listener = listenForNotifications({
    url,
    channel: SERVERS_CHANNEL,
    applicationName: SERVERS_LISTENER_NAME,
    onNotified: heard,
    onListening: () => known.listening(true),
    onDropped(err, retryInMs) {
      known.listening(false);
      logger.warn(
        { err, retryInMs },
        'the webhook receiver lost its servers listener; reconnecting, and reading the servers on a miss meanwhile',
      );
    },
  });
  return {
    tokens,
    async stop() {
      known.stop();
      await listener.stop();
    },
  };
}
