import { IdTable } from '../work/id-table.js';
import { msSince } from '../work/whole-ms.js';

/** Ends remembered at most; a forgotten one costs one store read and write when it is offered again. */
const KNOWN_MAX = 100_000;

/**
 * The ends a schedule wrote to the store and has not cleared: `/vote` offers a running vote on every
 * answer from the service's cache, and each offer cost a read, a write and a read of the next expiry.
 * The store also moves an end as it records another list's vote (later) or Guilds' confirmed end
 * (setPeriodEnd, followed at once by the schedule's own write); a stale entry here only costs a write.
 *
 * Small numbers (`msSince`) in an IdTable, no id strings: one entry a running vote in every server a
 * process runs. Bounded by dropping one entry when full, the lowest id: which one only decides whose
 * next offer costs a read and a write.
 */
export class KnownEnds {
  readonly #known = new IdTable();
  /** The ends are whole ms since then (small numbers, kept in place). */
  readonly #origin = Date.now();

  remember(userId: string, endsAt: number): void {
    if (this.#known.get(userId) === undefined && this.#known.size >= KNOWN_MAX) {
      const dropped = this.#known.ids().next();
      if (!dropped.done) this.#known.delete(dropped.value);
    }
    this.#known.set(userId, msSince(this.#origin, endsAt));
  }

  endOf(userId: string): number | undefined {
    const since = this.#known.get(userId);
    return since === undefined ? undefined : this.#origin + since;
  }

  forget(userId: string): void {
    this.#known.delete(userId);
  }
}
