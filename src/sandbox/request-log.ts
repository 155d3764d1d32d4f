import type { RouteName } from '../api/types.js';
import type { RecordedRequest } from './types.js';

/**
 * Recent requests, oldest first, bounded by maxLog; counters cover every request since the last
 * clear. The window is trimmed in batches so a long benchmark costs O(1) per request, amortised.
 */
export class RequestLog {
  private log: RecordedRequest[] = [];
  private start = 0;
  private total = 0;
  private readonly counts = new Map<RecordedRequest['route'], number>();

  constructor(private readonly maxLog = Infinity) {}

  record(request: RecordedRequest): void {
    this.total += 1;
    this.counts.set(request.route, (this.counts.get(request.route) ?? 0) + 1);
    if (this.maxLog <= 0) return;
    this.log.push(request);
    if (this.log.length - this.start > this.maxLog) this.start += 1;
    if (this.start >= this.maxLog) {
      this.log = this.log.slice(this.start);
      this.start = 0;
    }
  }

  get entries(): readonly RecordedRequest[] {
    return this.start === 0 ? this.log : this.log.slice(this.start);
  }

  count(route?: RouteName): number {
    return route === undefined ? this.total : (this.counts.get(route) ?? 0);
  }

  clear(): void {
    this.log = [];
    this.start = 0;
    this.total = 0;
    this.counts.clear();
  }
}
