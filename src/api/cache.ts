/**
 * A small TTL cache bounded in size: past `maxEntries` the oldest entry goes, so a guild of 100k
 * members checking once each cannot grow memory without bound. Map keeps insertion order, which
 * makes "oldest" the first key.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; storedAt: number; expiresAt: number }>();
  private generation = 0;

  constructor(
    private readonly maxEntries = 10_000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Bumped by every invalidation: a result fetched before it must not be stored after it. */
  get epoch(): number {
    return this.generation;
  }

  /** The live entry for `key`, with its age in ms (a cached time left has shrunk by that much). */
  get(key: string): { value: V; ageMs: number } | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    const now = this.now();
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return { value: entry.value, ageMs: now - entry.storedAt };
  }

  /** Stores `value` for `ttlMs`; a ttl of 0 or less stores nothing. */
  set(key: string, value: V, ttlMs: number): void {
    if (!(ttlMs > 0) || this.maxEntries <= 0) return;
    this.entries.delete(key);
    const now = this.now();
    this.entries.set(key, { value, storedAt: now, expiresAt: now + ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  /** Drops every entry whose value matches; O(n), which is fine for a rare event like a reply. */
  deleteWhere(matches: (value: V, key: string) => boolean): void {
    this.generation += 1;
    for (const [key, entry] of this.entries) if (matches(entry.value, key)) this.entries.delete(key);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
