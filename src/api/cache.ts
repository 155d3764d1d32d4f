import { BoundedMap } from '../core/bounded-map.js';

/**
 * The service client's results, each for its own time to live, bounded in size: past `maxEntries`
 * the one written longest ago goes, so a guild of 100k members checking once each cannot grow
 * memory without bound.
 */
export class TtlCache<V> {
  private readonly entries: BoundedMap<string, V>;
  private generation = 0;

  constructor(
    maxEntries = 10_000,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.entries = new BoundedMap({ max: maxEntries, now });
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bumped by every invalidation: a result fetched before it must not be stored after it. */
  get epoch(): number {
    return this.generation;
  }

  /** The live entry for `key`, with its age in ms (a cached time left has shrunk by that much). */
  get(key: string): { value: V; ageMs: number } | undefined {
    const now = this.now();
    const entry = this.entries.entry(key, now);
    return entry === undefined ? undefined : { value: entry.value, ageMs: now - entry.at };
  }

  /** Stores `value` for `ttlMs`; a ttl of 0 or less stores nothing. */
  set(key: string, value: V, ttlMs: number): void {
    if (!(ttlMs > 0)) return;
    this.entries.set(key, value, ttlMs);
  }

  /** Drops every entry whose value matches; O(n), which is fine for a rare event like a reply. */
  deleteWhere(matches: (value: V, key: string) => boolean): void {
    this.generation += 1;
    for (const [key, value] of this.entries) if (matches(value, key)) this.entries.delete(key);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
