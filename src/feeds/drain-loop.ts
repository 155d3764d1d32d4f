/**
 * Runs `drain` one pass at a time. A wake while a pass runs asks for one more pass after it, so
 * work queued mid-pass is never left waiting for the next wake; after stop() nothing starts.
 */
export class DrainLoop {
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = false;

  constructor(private readonly drain: () => Promise<void>) {}

  get stopped(): boolean {
    return this.#stopped;
  }

  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#again = false;
    this.#running = this.drain().finally(() => {
      this.#running = undefined;
      if (this.#again) this.wake();
    });
  }

  /** Stops starting passes and waits for the one running, if any. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#running;
  }
}
