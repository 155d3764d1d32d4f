import type { Logger } from '../core/log.js';

export interface RunningVote {
  userId: string;
  endsAt: number;
}

/** Something that acts when a member's vote starts running or runs out: the voter role, reminders. */
export interface ExpiryConsumer {
  readonly name: string;
  /** A running vote the schedule had not known (or every running vote at start). */
  onActive(userId: string, endsAt: number): Promise<void>;
  /** The vote ran out. Throwing keeps the entry; it is tried again after the retry delay. */
  onExpired(userId: string, endsAt: number): Promise<void>;
  /** A full reconcile's running votes, all at once (instead of onActive for each), to compare with what Discord has. */
  onAllActive?(running: readonly RunningVote[]): Promise<void>;
  /** True when some onActive calls were skipped and the next reconcile should offer every running vote again. */
  wantsFullReconcile?(): boolean;
  /** Every reconcile pass that is not a full one: the members whose votes run, to mend what was changed by hand. */
  heal?(running: readonly string[]): Promise<void>;
}

/** The schedule's consumers, told of running votes; one that fails is logged and never stops the others. */
export class ExpiryConsumers {
  constructor(
    private readonly consumers: readonly ExpiryConsumer[],
    private readonly logger: Logger,
    /** The schedule stopped: a full offer ends between consumers. */
    private readonly stopped: () => boolean,
  ) {}

  /** A full pass gives a consumer that takes them all at once the whole list; the others get each vote. */
  async offerAll(offers: readonly RunningVote[], full: boolean): Promise<void> {
    for (const consumer of this.consumers) {
      if (this.stopped()) return;
      if (full && consumer.onAllActive) {
        try {
          await consumer.onAllActive(offers);
        } catch (err) {
          this.logger.warn({ err, consumer: consumer.name }, 'could not act on the running votes');
        }
      } else for (const { userId, endsAt } of offers) await this.#offerTo(consumer, userId, endsAt);
    }
  }

  async heal(running: readonly string[]): Promise<void> {
    for (const consumer of this.consumers) {
      try {
        await consumer.heal?.(running);
      } catch (err) {
        this.logger.warn({ err, consumer: consumer.name }, 'could not check running votes against Discord');
      }
    }
  }

  async offer(userId: string, endsAt: number): Promise<void> {
    for (const consumer of this.consumers) await this.#offerTo(consumer, userId, endsAt);
  }

  async #offerTo(consumer: ExpiryConsumer, userId: string, endsAt: number): Promise<void> {
    try {
      await consumer.onActive(userId, endsAt);
    } catch (err) {
      this.logger.warn({ err, userId, consumer: consumer.name }, 'could not act on a running vote');
    }
  }
}
