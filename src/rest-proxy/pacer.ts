import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Spaces the requests that count against Discord's global limit evenly: one every 1/N s. REST's own
 * limit opens a window of N at its first request and lets all N go at once, so a window that
 * reaches Discord late (a busy machine, a slow link) and the next one on time arrive together, up to
 * 2N in one of Discord's seconds. Spaced, a late request can only meet its neighbours.
 */
export class Pacer {
  #nextAt = Number.NEGATIVE_INFINITY;
  readonly #intervalMs: number;

  constructor(
    perSecond: number,
    private readonly now: () => number = Date.now,
  ) {
    this.#intervalMs = 1000 / perSecond;
  }

  /** Takes the next free turn: how many ms from now it is (0 when the request may go at once). */
  reserve(): number {
    const now = this.now();
    const at = Math.max(now, this.#nextAt);
    this.#nextAt = at + this.#intervalMs;
    return at - now;
  }

  /**
   * Waits for a turn. An abort while waiting rejects as fetch does (an AbortError) and the turn stays
   * taken: at most one interval lost, where giving it back would need every later turn moved.
   */
  async turn(signal?: AbortSignal | null): Promise<void> {
    const waitMs = this.reserve();
    if (waitMs > 0) await sleep(waitMs, undefined, { signal: signal ?? undefined });
  }
}
