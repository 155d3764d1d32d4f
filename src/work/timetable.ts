interface Job {
  at: number;
  /** Which scheduling of the key this is: an entry of an older one left in the heap is skipped. */
  seq: number;
  run: () => void;
  everyMs: number | undefined;
}

interface Entry {
  at: number;
  key: string;
  seq: number;
}

/**
 * One timer for many jobs, each keyed (a server's poll): a job runs at its time, once or every so
 * often on a fixed cadence. Thousands of servers a process each had an interval of their own; here
 * they wait in one heap behind one timer. A job scheduled again (or cancelled) replaces the earlier
 * time; its old heap entry is skipped when it comes up.
 */
export class Timetable {
  readonly #jobs = new Map<string, Job>();
  readonly #heap: Entry[] = [];
  #seq = 0;
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Infinity;
  #stopped = false;

  constructor(private readonly now: () => number = Date.now) {}

  get size(): number {
    return this.#jobs.size;
  }

  /** Runs `run` at `at` (epoch ms), once. */
  at(key: string, at: number, run: () => void): void {
    this.#add(key, at, run, undefined);
  }

  /** Runs `run` at `firstAt`, then every `ms` after it (a late run does not move the cadence). */
  every(key: string, firstAt: number, ms: number, run: () => void): void {
    this.#add(key, firstAt, run, ms);
  }

  cancel(key: string): void {
    this.#jobs.delete(key);
  }

  stop(): void {
    this.#stopped = true;
    this.#jobs.clear();
    this.#heap.length = 0;
    clearTimeout(this.#timer);
  }

  #add(key: string, at: number, run: () => void, everyMs: number | undefined): void {
    if (this.#stopped) return;
    const seq = ++this.#seq;
    this.#jobs.set(key, { at, seq, run, everyMs });
    this.#push({ at, key, seq });
    if (at < this.#timerAt) this.#arm();
  }

  #arm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
    // Entries of cancelled or rescheduled jobs are dropped as they reach the top.
    while (this.#heap.length > 0 && this.#jobs.get(this.#heap[0]!.key)?.seq !== this.#heap[0]!.seq) this.#pop();
    const head = this.#heap[0];
    if (!head || this.#stopped) return;
    this.#timerAt = head.at;
    this.#timer = setTimeout(() => this.#fire(), Math.min(Math.max(0, head.at - this.now()), 2 ** 31 - 1));
    this.#timer.unref();
  }

  #fire(): void {
    const now = this.now();
    while (this.#heap.length > 0 && this.#heap[0]!.at <= now) {
      const { key, seq } = this.#pop()!;
      const job = this.#jobs.get(key);
      if (!job || job.seq !== seq) continue;
      if (job.everyMs === undefined) this.#jobs.delete(key);
      else {
        // The next time on the cadence after now: a process that slept skips the runs it missed.
        const behind = Math.floor((now - job.at) / job.everyMs) + 1;
        job.at += behind * job.everyMs;
        this.#push({ at: job.at, key, seq });
      }
      try {
        job.run();
      } catch {
        // A job is a wake-up of a loop that catches its own failures; one that throws loses only this run.
      }
    }
    this.#arm();
  }

  #push(entry: Entry): void {
    const heap = this.#heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.at <= entry.at) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = entry;
  }

  #pop(): Entry | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && heap[right]!.at < heap[left]!.at ? right : left;
      if (heap[child]!.at >= last.at) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
    return top;
  }
}
