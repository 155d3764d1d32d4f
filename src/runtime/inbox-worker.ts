import type { Logger } from '../core/log.js';
import type { ShardSet } from '../shards/ownership.js';
import type { EventStore, StoredEvent } from '../store/index.js';
import { backoffMs, type BackoffPolicy } from '../work/backoff.js';
import type { EventInbox } from '../webhooks/event-inbox.js';
import { StoreDrained } from '../work/drain-loop.js';
import { EventRetention } from './event-retention.js';

/** Does what a stored event asks; one that throws is handed out again after its backoff. */
export interface StoredEventHandler {
  handle(event: StoredEvent): Promise<void>;
}

export interface InboxWorkerOptions {
  store: Pick<EventStore, 'pendingEvents' | 'deferEvent' | 'markEventsHandled' | 'nextEventDue' | 'dropHandledEvents'>;
  logger: Logger;
  /** Where each claimed event goes: in the bot, Runtimes (runtime/runtimes.ts). */
  handler: StoredEventHandler;
  /** Only events of servers on these shards (this process's); all without. */
  shards?: ShardSet;
  /**
   * Looks at the store this often even unwoken: events another process's receiver stored wake
   * nothing here. Off (undefined) when this process stores every event it handles.
   */
  idlePollMs?: number;
  now?: () => number;
  backoff?: BackoffPolicy;
  /**
   * The safety net (INBOX_POLL_SECONDS): the store is looked at this often even when no wake-up
   * came, for an event stored by another process while its NOTIFY could not be heard.
   */
  pollMs?: number;
}

const BATCH = 50;
/** A failed event waits 1 s, doubling to 5 min, and is never given up: handling is store work, so a failure passes. */
const EVENT_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 5 * 60_000 };

/**
 * Handles stored webhook events, oldest first. An event counts as handled only once its handler
 * finished, so events stored before a crash are handled after the restart. One that fails waits
 * its backoff in the store (attempts, next try) while the others go on; a store that fails makes
 * the loop retry by itself.
 */
export class InboxWorker extends StoreDrained implements EventInbox {
  readonly #retention: EventRetention;

  constructor(private readonly options: InboxWorkerOptions) {
    super({ logger: options.logger, line: 'could not read the webhook inbox; trying again shortly' });
    const { store, logger, shards } = options;
    this.#retention = new EventRetention({ store, logger, ...(shards ? { shards } : {}) });
  }

  protected async pass(): Promise<void> {
    const { store, logger, handler } = this.options;
    const now = this.options.now ?? Date.now;
    while (!this.loop.stopped) {
      const events = await store.pendingEvents(BATCH, now(), this.options.shards);
      if (events.length === 0) break;
      // Marked handled once per batch, after each one's handler finished (one UPDATE, not one per
      // event): a stop or crash before the mark only hands those events out again, and delivery is at
      // least once anyway, so each handler already takes a repeat as a duplicate.
      const handled: number[] = [];
      try {
        for (const event of events) {
          if (this.loop.stopped) return;
          try {
            await handler.handle(event);
          } catch (err) {
            const attempts = event.attempts + 1;
            const waitMs = backoffMs(attempts, this.options.backoff ?? EVENT_BACKOFF);
            logger.warn(
              { err, eventId: event.id, kind: event.kind, attempts, retryInMs: waitMs },
              'webhook event not handled yet; will retry',
            );
            await store.deferEvent(event.id, attempts, now() + waitMs);
            continue;
          }
          handled.push(event.id);
        }
      } finally {
        if (handled.length > 0) await store.markEventsHandled(handled, now());
      }
    }
    if (this.loop.stopped) return;
    // The inbox's own loop drops what it handled long ago: one pass for all this process's servers.
    await this.#retention.passIfDue(now());
    const next = await store.nextEventDue(this.options.shards);
    const at = now();
    // The safety poll: a wake-up (NOTIFY) may be missed while the listener reconnects; with other
    // processes running other shards, the shorter idle poll of a shared inbox.
    const pollMs = this.options.idlePollMs ?? this.options.pollMs;
    const poll = pollMs === undefined ? Infinity : at + pollMs;
    const wakeAt = Math.min(next ?? Infinity, poll, this.#retention.dueAt);
    if (wakeAt !== Infinity) this.loop.wakeAt(wakeAt, at);
  }
}
