import type { ShardOwnership } from '../shards/ownership.js';
import { discordPoster } from '../bot/poster.js';
import { Runtimes } from '../runtime/runtimes.js';
import { pollOffsetMs } from '../runtime/poll-offset.js';
import { serverRuntimeOf, type ProcessParts } from './server-runtime-of.js';
import { serverPasses } from '../runtime/server-passes.js';
import { DeliveryLog } from '../webhooks/delivery-log.js';
import type { EventInbox } from '../webhooks/event-inbox.js';
import { InboxWorker } from '../runtime/inbox-worker.js';
import type { Receiver } from '../webhooks/receiver.js';
import { listenForEvents } from '../store/inbox-listener.js';
import { startWebhookReceiver } from './webhook-receiver.js';
import { topggRecovery } from './topgg-recovery.js';
import { ForwardWorker } from '../forwarding/forward-worker.js';

/** How soon an event stored by another process's receiver is seen without a wake-up. */
const SHARED_INBOX_POLL_MS = 1_000;

export interface Realtime {
  readonly runtimes: Runtimes;
  readonly receiver: Receiver | undefined;
  /** The delivery log's writer: its lines wait in memory up to a second before they are stored. */
  readonly deliveries: DeliveryLog;
  /** Discord is connected: handle what the store holds, announce, poll, for every set-up server. */
  begin(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Guilds' push events and every server's background work. The receiver starts at once, so
 * deliveries are stored even while Discord is still connecting; handling starts with `begin`.
 */
export async function startRealtime(
  deps: ProcessParts & {
    /** The servers this process acts for: those on its shards. */
    ownership: ShardOwnership;
    /** Counts what the webhook receiver refuses, when metrics are on. */
    onWebhookRefused?: (reason: string) => void;
  },
): Promise<Realtime> {
  const { config, servers, client, root, logger, ownership } = deps;
  const poster = discordPoster(client.rest);
  const deliveries = new DeliveryLog({ store: root, logger });
  const passes = serverPasses({ store: root, logger, config });
  // Made before the runtimes, so that "since the start" is the process's start and /vote can ask it.
  const recovery = topggRecovery(deps, (guildId) => runtimes.get(guildId));
  const topggVote = (guildId: string, userId: string) => recovery.memberVote(guildId, userId);
  const forwards = forwardWorker(deps);
  const runtimes = new Runtimes({
    servers,
    passes,
    deliveries,
    inGuild: (guildId) => client.guilds.cache.has(guildId),
    owns: (guildId) => ownership.owns(guildId),
    logger,
    build: (guildId) =>
      serverRuntimeOf(
        { ...deps, poster, passes, topggVote, forwards },
        guildId,
        // One server polls at once as it always did; many spread their polls over the interval.
        servers.mode === 'single' ? 0 : pollOffsetMs(guildId, config.votePollMs),
      ),
  });
  const worker = new InboxWorker({
    store: root,
    logger,
    pollMs: config.inboxPollMs,
    shards: ownership,
    // With other processes, their receivers store this one's events too.
    ...(ownership.ownsAll ? {} : { idlePollMs: SHARED_INBOX_POLL_MS }),
    handler: runtimes,
  });
  let begun = false;
  // Stored events wake the worker once begun: begin() itself drains what was stored before.
  const inbox: EventInbox = {
    wake() {
      if (begun) worker.wake();
    },
  };
  const receiver = config.role === 'bot' ? undefined : await startOwnReceiver(deps, inbox, deliveries);
  if (receiver) logger.info({ url: receiver.url }, 'webhook receiver listening');
  const listener = listenIfShared(deps, inbox);

  return {
    runtimes,
    receiver,
    deliveries,
    async begin() {
      if (begun) return;
      begun = true;
      await runtimes.startAll();
      // After the servers joined: the first reminder pass reads the last hour's ends for all of them.
      passes.start();
      worker.wake();
      forwards.start();
      await recovery.start();
    },
    async stop() {
      await receiver?.close();
      await listener?.stop();
      await worker.stop();
      await deliveries.stop();
      await recovery.stop();
      await runtimes.stopAll();
      await passes.stop();
      await forwards.stop();
    },
  };
}

/** The process's one forwarding worker, for the servers on its shards. */
function forwardWorker({
  config,
  servers,
  root,
  logger,
  ownership,
}: Parameters<typeof startRealtime>[0]): ForwardWorker {
  const send = { allowPrivate: config.forward.allowPrivate };
  return new ForwardWorker({
    store: root,
    secretOf: (due) => servers.forwards.secretOf(due),
    send,
    logger,
    shards: ownership,
  });
}

/** This process's own receiver (ROLE=all), storing into the store this process handles from. */
async function startOwnReceiver(
  deps: Parameters<typeof startRealtime>[0],
  inbox: EventInbox,
  deliveries: DeliveryLog,
): Promise<Receiver | undefined> {
  const { config, servers, root, logger } = deps;
  if (!config.webhook) return undefined;
  return startWebhookReceiver({
    webhook: config.webhook,
    database: config.database,
    servers,
    store: root,
    logger,
    deliveries,
    onRefused: deps.onWebhookRefused,
    inbox,
  });
}

/**
 * On PostgreSQL a receiver may be another process (ROLE=receiver, or another bot's): its NOTIFY
 * wakes the inbox at once, and the slow poll covers the time the listener is reconnecting.
 */
function listenIfShared({ config, logger }: Parameters<typeof startRealtime>[0], inbox: EventInbox) {
  if (config.database.kind !== 'postgres') return undefined;
  return listenForEvents({
    url: config.database.url,
    onEvent: () => inbox.wake(),
    onListening(again) {
      logger.info({ again }, 'listening for stored webhook events');
      inbox.wake();
    },
    onDropped: (err, retryInMs) =>
      logger.warn(
        { err, retryInMs, pollMs: config.inboxPollMs },
        'the inbox listener lost its connection; reconnecting, and polling the inbox meanwhile',
      ),
  });
}
