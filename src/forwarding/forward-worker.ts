import type { Logger } from '../core/log.js';
import type { ShardSet } from '../shards/ownership.js';
import type { DueForward, ForwardOutboxStore, ForwardResult } from '../store/index.js';
import { DrainLoop } from '../work/drain-loop.js';
import { STORE_BACKOFF } from '../work/backoff.js';
import { nextAttemptAt } from './retry-schedule.js';
import { sendForward, type SendOptions } from './send.js';

/** Sends at once, over every server: a destination's own deliveries still go one at a time. */
const IN_FLIGHT_MAX = 64;
/** The safety net: rows written by a path that did not wake the worker are found within this. */
const IDLE_CHECK_MS = 60_000;
/** A send whose result could not be stored waits this long before it goes again, not at once. */
const UNRECORDED_PAUSE_MS = 5_000;

export interface ForwardWorkerOptions {
  store: ForwardOutboxStore;
  /** The destination's secret, opened for this one send; undefined when no key opens it. */
  secretOf(due: DueForward): string | undefined;
  send: SendOptions;
  logger: Logger;
  /** The servers this process acts for; every server when undefined. */
  shards?: ShardSet;
  now?: () => number;
}

/**
 * The one worker of a process that sends every server's forwarded votes (issue 51): it reads the due
 * head of each destination's queue from the store, sends it, and records how it went. Woken when the
 * ledger takes a vote and when a send ends; a retry's time wakes it again. No timer per server.
 */
export class ForwardWorker {
  readonly #loop: DrainLoop;
  readonly #inFlight = new Set<string>();
  /** Destinations whose last result the store did not take, until when they wait (memory: at most IN_FLIGHT_MAX). */
  readonly #paused = new Map<string, number>();
  readonly #sending = new Set<Promise<void>>();
  readonly #now: () => number;

  constructor(private readonly options: ForwardWorkerOptions) {
    this.#now = options.now ?? Date.now;
    this.#loop = new DrainLoop(() => this.#pass(), {
      backoff: STORE_BACKOFF,
      warn: { logger: options.logger, line: 'could not read the forwarded votes waiting; trying again' },
    });
  }

  start(): void {
    this.#loop.every(IDLE_CHECK_MS);
    this.#loop.wake();
  }

  wake(): void {
    this.#loop.wake();
  }

  async stop(): Promise<void> {
    await this.#loop.stop();
    await Promise.all([...this.#sending]);
  }

  async #pass(): Promise<void> {
    const { store, shards } = this.options;
    const now = this.#now();
    const due = await store.dueForwards(now, IN_FLIGHT_MAX + this.#inFlight.size, shards);
    for (const [key, until] of this.#paused) if (until <= now) this.#paused.delete(key);
    for (const head of due) {
      if (this.#inFlight.size >= IN_FLIGHT_MAX) break;
      const key = `${head.guildId} ${head.destinationId}`;
      if (!this.#inFlight.has(key) && !this.#paused.has(key)) this.#launch(key, head);
    }
    for (const until of this.#paused.values()) this.#loop.wakeAt(until, now);
    const next = await store.nextForwardDue(shards);
    if (next !== undefined && next > now) this.#loop.wakeAt(next, now);
  }

  #launch(key: string, head: DueForward): void {
    this.#inFlight.add(key);
    const sending: Promise<void> = this.#deliver(head)
      .catch((err: unknown) => {
        // Sent again later (at least once): not at once, or a store refusing writes would make a flood.
        this.#paused.set(key, this.#now() + UNRECORDED_PAUSE_MS);
        this.options.logger.warn(
          { err, guildId: head.guildId, destinationId: head.destinationId, deliveryId: head.deliveryId },
          'could not record a forwarded vote; it is sent again',
        );
      })
      .finally(() => {
        this.#inFlight.delete(key);
        this.#sending.delete(sending);
        this.#loop.wake();
      });
    this.#sending.add(sending);
  }

  async #deliver(head: DueForward): Promise<void> {
    const at = this.#now();
    const secret = this.options.secretOf(head);
    const { result, retryAfterMs } =
      secret === undefined
        ? { result: { outcome: 'refused', reason: 'secret' } as const, retryAfterMs: undefined }
        : await sendForward(
            { url: head.url, secret, body: head.body, deliveryId: head.deliveryId, at },
            this.options.send,
          );
    const nextAt = nextAttemptAt(result, head.attempts + 1, at, retryAfterMs);
    await this.options.store.forwardSettled(head, result, at, nextAt);
    this.#log(head, result, nextAt === undefined ? 0 : nextAt - at);
  }

  #log(head: DueForward, result: ForwardResult, retryInMs: number): void {
    // The URL is never logged: an admin may have put a token in it.
    const fields = {
      guildId: head.guildId,
      destinationId: head.destinationId,
      deliveryId: head.deliveryId,
      attempt: head.attempts + 1,
      ...result,
    };
    const { logger } = this.options;
    if (result.outcome === 'delivered') logger.info(fields, 'vote forwarded');
    else if (result.outcome === 'gaveUp') logger.warn(fields, 'forwarded vote given up: the destination refused it');
    else {
      // One warning per delivery that fails, however long the destination stays down; its retries are debug lines.
      const level = head.attempts === 0 ? 'warn' : 'debug';
      logger[level]({ ...fields, retryInMs }, 'forwarded vote not delivered; trying again');
    }
  }
}
