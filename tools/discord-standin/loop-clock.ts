const TURN_MS = 20;
/** The real clock, in ms: a test that holds Date and performance (held-clock.ts) and moves them reads no stall. */
const realNow = (): number => Number(process.hrtime.bigint()) / 1e6;
/** A gap this much longer than a turn is a stall; shorter ones are the loop's ordinary jitter. */
const STALL_MS = 5 * TURN_MS;

/**
 * How long this process's event loop was held before now. A timer notes each free turn of the
 * loop; what is read right after a stall (a collection, a core given to other processes) may have
 * reached the socket at any moment of it. Read on process.hrtime, which no test holds: a held
 * performance clock moved 3 s by a test is not a stall of 3 s.
 */
export class LoopClock {
  #lastTurn = realNow();
  readonly #timer = setInterval(() => {
    this.#lastTurn = realNow();
  }, TURN_MS).unref();

  /** Milliseconds the loop was held before now, or 0 when it turned on time. */
  stalledFor(): number {
    const gap = realNow() - this.#lastTurn;
    return gap > STALL_MS ? gap : 0;
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
