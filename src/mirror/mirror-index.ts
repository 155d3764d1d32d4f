import type { MirrorEntry } from '../store/index.js';

/**
 * The mirror's rows by member, one number each: the vote's end, negative when it did not come
 * through Discord. An entry object and its end cost about 64 B a voter; a process keeps the voters
 * of every server it polls.
 */
export class MirrorIndex {
  readonly #ends: Map<string, number>;

  private constructor(ends: Map<string, number>) {
    this.#ends = ends;
  }

  static of(entries: Iterable<MirrorEntry>): MirrorIndex {
    const index = new MirrorIndex(new Map());
    for (const entry of entries) index.set(entry);
    return index;
  }

  copy(): MirrorIndex {
    return new MirrorIndex(new Map(this.#ends));
  }

  get(userId: string): MirrorEntry | undefined {
    const packed = this.#ends.get(userId);
    return packed === undefined ? undefined : { userId, expiresAt: Math.abs(packed), viaDiscord: packed > 0 };
  }

  /** When the member's mirrored vote ends, with no object made: `/vote` reads it. */
  expiresAt(userId: string): number | undefined {
    const packed = this.#ends.get(userId);
    return packed === undefined ? undefined : Math.abs(packed);
  }

  set(entry: MirrorEntry): void {
    this.#ends.set(entry.userId, entry.viaDiscord ? entry.expiresAt : -entry.expiresAt);
  }

  delete(userId: string): void {
    this.#ends.delete(userId);
  }

  userIds(): IterableIterator<string> {
    return this.#ends.keys();
  }
}
