import type { MirrorEntry } from '../store/index.js';
import { msSince } from '../work/whole-ms.js';

/**
 * The mirror's rows by member, one small number each: twice the vote's end in ms since the index was
 * made, plus one when it came through Discord. An entry object and its end cost about 64 B a voter, a
 * boxed end 16 B; a process keeps the voters of every server it polls.
 */
export class MirrorIndex {
  readonly #ends: Map<string, number>;
  /** Epoch ms the ends count from: when this index (or the copy it was made from) was made. */
  readonly #origin: number;

  private constructor(ends: Map<string, number>, origin: number) {
    this.#ends = ends;
    this.#origin = origin;
  }

  static of(entries: Iterable<MirrorEntry>): MirrorIndex {
    const index = new MirrorIndex(new Map(), Date.now());
    for (const entry of entries) index.set(entry);
    return index;
  }

  /**
   * A copy counts from now: an index copied at every poll never drifts out of the small numbers' range.
   * Its numbers are these shifted by twice the origins' gap: whole, and an even shift keeps the low bit.
   */
  copy(): MirrorIndex {
    const copy = new MirrorIndex(new Map(), Date.now());
    const shift = 2 * (this.#origin - copy.#origin);
    for (const [userId, packed] of this.#ends) copy.#ends.set(userId, packed + shift);
    return copy;
  }

  get(userId: string): MirrorEntry | undefined {
    const packed = this.#ends.get(userId);
    return packed === undefined ? undefined : { userId, expiresAt: this.#end(packed), viaDiscord: (packed & 1) === 1 };
  }

  /** When the member's mirrored vote ends, with no object made: `/vote` reads it. */
  expiresAt(userId: string): number | undefined {
    const packed = this.#ends.get(userId);
    return packed === undefined ? undefined : this.#end(packed);
  }

  // The lowest bit survives ToInt32 (modulo 2^32) for any whole number, negative ones too.
  #end(packed: number): number {
    return this.#origin + (packed - (packed & 1)) / 2;
  }

  set(entry: MirrorEntry): void {
    this.#ends.set(entry.userId, 2 * msSince(this.#origin, entry.expiresAt) + (entry.viaDiscord ? 1 : 0));
  }

  delete(userId: string): void {
    this.#ends.delete(userId);
  }

  userIds(): IterableIterator<string> {
    return this.#ends.keys();
  }
}
