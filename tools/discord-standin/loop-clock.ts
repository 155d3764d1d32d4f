const TURN_MS = 20;
/** A gap this much longer than a turn is a stall; shorter ones are the loop's ordinary jitter. */
const STALL_MS = 5 * TURN_MS;

/**
 * How long this process's event loop was held before now. A timer notes each free turn of the
 * loop; what is read right after a stall (a collection, a core given to other processes) may have
 * reached the socket at any moment of it. The global `performance` clock, monotonic, so a test
 * that holds the clocks reads no stall.
 */
export class LoopClock {
  #lastTurn = performance.now();
  readonly #timer = setInterval(() => {
    this.#lastTurn = performance.now();
  }, TURN_MS).unref();

  /** Milliseconds the loop was held before now, or 0 when it turned on time. */
  stalledFor(): number {
    const gap = performance.now() - this.#lastTurn;
    return gap > STALL_MS ? gap : 0;
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
