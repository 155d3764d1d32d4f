/**
 * At most `limit` requests in any `windowMs`, for everything that shares one instance: each caller
 * books the next free slot and waits until it comes, so a burst is spread out, never refused. A site
 * that blocks a token for breaking its limit (Top.gg: an hour) must never see the limit crossed.
 */
export class RequestWindow {
  /** The booked slots' times, oldest first; never more than `limit`. */
  readonly #slots: number[] = [];

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a whole number ≥ 1');
  }

  /** Books the next slot; how long (ms) to wait before sending, 0 when one is free now. */
  reserve(): number {
    const now = this.now();
    const full = this.#slots.length >= this.limit;
    // Once full the list stays full: each booking takes the place of the oldest, a window after it.
    const at = full ? Math.max(now, this.#slots[0]! + this.windowMs) : now;
    if (full) this.#slots.shift();
    this.#slots.push(at);
    return at - now;
  }

  /** Books a slot only if one is free now: for a caller that cannot wait (a member's command). */
  tryReserve(): boolean {
    const now = this.now();
    if (this.#slots.length >= this.limit && this.#slots[0]! + this.windowMs > now) return false;
    this.reserve();
    return true;
  }

  /** Waits for the next slot (`sleep` is the timer; tests pass their own). */
  async take(sleep: (ms: number) => Promise<void> = pause): Promise<void> {
    const wait = this.reserve();
    if (wait > 0) await sleep(wait);
  }
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
