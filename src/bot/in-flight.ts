/** Interactions being handled, so shutdown can let them finish before the client goes away. */
export class InFlight {
  private readonly pending = new Set<Promise<unknown>>();
  private closed = false;

  get accepting(): boolean {
    return !this.closed;
  }

  get size(): number {
    return this.pending.size;
  }

  track(work: Promise<unknown>): void {
    const done = work.finally(() => this.pending.delete(done)).catch(() => undefined);
    this.pending.add(done);
  }

  /** Stops accepting, waits up to `graceMs`, and returns how many were still running. */
  async drain(graceMs: number): Promise<number> {
    this.closed = true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([Promise.allSettled([...this.pending]), timeout]);
    clearTimeout(timer);
    return this.pending.size;
  }
}
