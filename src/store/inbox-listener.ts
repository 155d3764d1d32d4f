import type pg from 'pg';
import { backoffMs, STORE_BACKOFF, type BackoffPolicy } from '../work/backoff.js';
import { INBOX_CHANNEL } from './inbox-channel.js';

/** Its application_name, so an operator can find it in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'vote-review-bot inbox listener';

export interface InboxListenerOptions {
  url: string;
  /** An event for this server was stored (its row is committed). */
  onEvent(guildId: string): void;
  /** Listening, the first time or again: events stored while it was not are waiting, so look now. */
  onListening(again: boolean): void;
  /** The connection failed or dropped: until it is back, only the slow poll finds new events. */
  onDropped(error: unknown, retryInMs: number): void;
  backoff?: BackoffPolicy;
  /** How often the connection is exercised, so one that died silently is noticed. */
  heartbeatMs?: number;
}

export interface InboxListener {
  stop(): Promise<void>;
}

/** LISTEN on one channel: the inbox's, or another the store notifies on (servers-channel.ts). */
export interface NotificationListenerOptions extends Omit<InboxListenerOptions, 'onEvent'> {
  channel: string;
  /** Its application_name in pg_stat_activity. */
  applicationName: string;
  /** A notification on the channel, with its payload (a server id). */
  onNotified(payload: string): void;
}

export function listenForEvents(options: InboxListenerOptions): InboxListener {
  return listenForNotifications({
    ...options,
    channel: INBOX_CHANNEL,
    applicationName: LISTENER_APPLICATION_NAME,
    onNotified: options.onEvent,
  });
}

/**
 * LISTEN on a channel over a connection of its own (a pooled one would be handed back and stop
 * hearing). A lost connection is transient: reconnected with capped backoff, forever.
 */
export function listenForNotifications(options: NotificationListenerOptions): InboxListener {
  const backoff = options.backoff ?? STORE_BACKOFF;
  const heartbeatMs = options.heartbeatMs ?? 10_000;
  let stopped = false;
  let failures = 0;
  let listenedBefore = false;
  let client: pg.Client | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;

  const connect = async () => {
    // pg is loaded by the processes that use PostgreSQL only.
    const { default: pgModule } = await import('pg');
    const next = new pgModule.Client({
      connectionString: options.url,
      application_name: options.applicationName,
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
      query_timeout: 10_000,
    });
    client = next;
    let down = false;
    const drop = (error: unknown) => {
      if (down || stopped) return;
      down = true;
      clearInterval(heartbeat);
      void next.end().catch(() => undefined);
      failures += 1;
      const wait = backoffMs(failures, backoff);
      options.onDropped(error, wait);
      retry = setTimeout(() => void connect(), wait);
      retry.unref();
    };
    next.on('error', drop);
    next.on('end', () => drop(new Error(`the ${options.channel} listener connection ended`)));
    next.on('notification', (message) => {
      if (message.channel === options.channel && message.payload) options.onNotified(message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${options.channel}`);
    } catch (error) {
      return drop(error);
    }
    if (stopped) return void next.end().catch(() => undefined);
    failures = 0;
    heartbeat = setInterval(() => void next.query('SELECT 1').catch(drop), heartbeatMs);
    heartbeat.unref();
    options.onListening(listenedBefore);
    listenedBefore = true;
  };
  void connect();

  return {
    async stop() {
      stopped = true;
      clearInterval(heartbeat);
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
