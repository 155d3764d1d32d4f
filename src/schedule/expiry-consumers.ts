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

/** A schedule's consumers and where their failures are logged. */
interface Consumers {
  readonly consumers: readonly ExpiryConsumer[];
  readonly logger: Logger;
}

// Functions over the schedule's own options, not an object per schedule: a process runs one for each
// of its servers. A consumer that fails is logged and never stops the others.

/**
 * A full pass gives a consumer that takes them all at once the whole list; the others get each vote.
 * `stopped`: the schedule stopped, so the offer ends between consumers.
 */
export async function offerAll(
  { consumers, logger }: Consumers,
  offers: readonly RunningVote[],
  full: boolean,
  stopped: () => boolean,
): Promise<void> {
  for (const consumer of consumers) {
    if (stopped()) return;
    if (full && consumer.onAllActive) {
      try {
        await consumer.onAllActive(offers);
      } catch (err) {
        logger.warn({ err, consumer: consumer.name }, 'could not act on the running votes');
      }
    } else for (const { userId, endsAt } of offers) await offerTo(consumer, logger, userId, endsAt);
  }
}

export async function healAll({ consumers, logger }: Consumers, running: readonly string[]): Promise<void> {
  for (const consumer of consumers) {
    try {
      await consumer.heal?.(running);
    } catch (err) {
      logger.warn({ err, consumer: consumer.name }, 'could not check running votes against Discord');
    }
  }
}

export async function offerEach({ consumers, logger }: Consumers, userId: string, endsAt: number): Promise<void> {
  for (const consumer of consumers) await offerTo(consumer, logger, userId, endsAt);
}

async function offerTo(consumer: ExpiryConsumer, logger: Logger, userId: string, endsAt: number): Promise<void> {
  try {
    await consumer.onActive(userId, endsAt);
  } catch (err) {
    logger.warn({ err, userId, consumer: consumer.name }, 'could not act on a running vote');
  }
}
