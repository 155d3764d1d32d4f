export interface BoundedMapOptions {
  /** Entries kept at most; 0 or less keeps none. */
  max: number;
  /**
   * Which entry is the oldest: the one written longest ago (default), or the one read or written
   * longest ago ('used', least recently used first).
   */
  order?: 'written' | 'used';
  /**
   * What a new key does to a full map: drop the oldest entry (default), or every entry, for a bound
   * that is only a safety net against a flood of keys, where starting afresh is enough.
   */
  whenFull?: 'drop-oldest' | 'clear';
  /** Read when an entry is written and when one with a time to live is read. */
  now?: () => number;
}

interface Slot<V> {
  value: V;
  /** When it was written. */
  at: number;
  expiresAt: number;
}

/**
 * A Map bounded in size, with an optional time to live per entry, so a flood of keys (a guild of
 * 100k members, made-up server ids) cannot grow memory without bound. A Map keeps insertion order,
 * so the oldest entry is always the first key; a write (or, in 'used' order, a read) moves an entry
 * to the end. An expired entry is dropped when read. Reads allocate nothing.
 */
export class BoundedMap<K, V> {
  readonly #slots = new Map<K, Slot<V>>();
  readonly #max: number;
  readonly #used: boolean;
  readonly #clear: boolean;
  readonly #now: () => number;

  constructor(options: BoundedMapOptions) {
    this.#max = options.max;
    this.#used = options.order === 'used';
    this.#clear = options.whenFull === 'clear';
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#slots.size;
  }

  /** The live value for `key`; in 'used' order this counts as a use. */
  get(key: K): V | undefined {
    return this.entry(key)?.value;
  }

  /** The live value for `key`, leaving the order alone. */
  peek(key: K): V | undefined {
    return this.#live(key)?.value;
  }

  has(key: K): boolean {
    return this.#live(key) !== undefined;
  }

  /**
   * The live entry for `key` as stored (not copied), with when it was written. `now`, if given, is
   * the time to check its expiry against, for a caller that reads the clock anyway.
   */
  entry(key: K, now?: number): Readonly<{ value: V; at: number }> | undefined {
    const slot = this.#live(key, now);
    if (slot === undefined) return undefined;
    if (this.#used) {
      this.#slots.delete(key);
      this.#slots.set(key, slot);
    }
    return slot;
  }

  /** Writes `value` as the newest entry, for `ttlMs` (for good without it), making room first if full. */
  set(key: K, value: V, ttlMs = Infinity): this {
    if (this.#max <= 0) return this;
    const at = this.#now();
    if (!this.#slots.delete(key) && this.#slots.size >= this.#max) this.#makeRoom();
    this.#slots.set(key, { value, at, expiresAt: at + ttlMs });
    return this;
  }

  /**
   * Writes `value` where the entry stands in the order: a later step of the same entry (a claim
   * that became a result), not a new one. A key not held is written as the newest.
   */
  update(key: K, value: V, ttlMs = Infinity): this {
    if (!this.#slots.has(key)) return this.set(key, value, ttlMs);
    const at = this.#now();
    this.#slots.set(key, { value, at, expiresAt: at + ttlMs });
    return this;
  }

  delete(key: K): boolean {
    return this.#slots.delete(key);
  }

  clear(): void {
    this.#slots.clear();
  }

  /** Every entry held, oldest first, expired ones included until read; deleting while iterating is safe. */
  *[Symbol.iterator](): IterableIterator<[K, V]> {
    for (const [key, slot] of this.#slots) yield [key, slot.value];
  }

  #live(key: K, now?: number): Slot<V> | undefined {
    const slot = this.#slots.get(key);
    if (slot === undefined || slot.expiresAt === Infinity || slot.expiresAt > (now ?? this.#now())) return slot;
    this.#slots.delete(key);
    return undefined;
  }

  #makeRoom(): void {
    if (this.#clear) return this.#slots.clear();
    const oldest = this.#slots.keys().next();
    if (!oldest.done) this.#slots.delete(oldest.value);
  }
}
