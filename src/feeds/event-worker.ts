import type { Logger } from '../log.js';
import type { Store, StoredEvent } from '../store/index.js';
import { DrainLoop } from '../work/drain-loop.js';

export type EventHandler = (event: StoredEvent) => Promise<void>;

export interface EventWorkerOptions {
  store: Store;
  logger: Logger;
  handle: EventHandler;
  /** Before an event whose handling failed is tried again. */
  retryMs?: number;
  /** Tries before an event is given up on (logged at error), so one bad event cannot block the rest. */
  maxTries?: number;
}

/**
 * Handles stored webhook events one at a time, oldest first. An event counts as handled only once
 * its handler finished, so events stored before a crash are handled after the restart.
 */
export class EventWorker {
  readonly #loop = new DrainLoop(() => this.#drain());
  #retry: NodeJS.Timeout | undefined;
  readonly #failures = new Map<number, number>();

  constructor(private readonly options: EventWorkerOptions) {}

  wake(): void {
    this.#loop.wake();
  }

  async stop(): Promise<void> {
    clearTimeout(this.#retry);
    await this.#loop.stop();
  }

  async #drain(): Promise<void> {
    const { store, logger, handle } = this.options;
    while (!this.#loop.stopped) {
      const events = await store.pendingEvents(20);
      if (events.length === 0) return;
      for (const event of events) {
        if (this.#loop.stopped) return;
        try {
          await handle(event);
        } catch (err) {
          const tries = (this.#failures.get(event.id) ?? 0) + 1;
          this.#failures.set(event.id, tries);
          if (tries < (this.options.maxTries ?? 5)) {
            logger.warn(
              { err, eventId: event.id, kind: event.kind, tries },
              'webhook event not handled yet; will retry',
            );
            clearTimeout(this.#retry);
            this.#retry = setTimeout(() => this.wake(), this.options.retryMs ?? 5_000);
            this.#retry.unref();
            return;
          }
          logger.error(
            { err, eventId: event.id, kind: event.kind, tries },
            'webhook event given up after repeated failures',
          );
        }
        this.#failures.delete(event.id);
        await store.markEventHandled(event.id, Date.now());
      }
    }
  }
}
