import type { MirrorEntry } from '../store/index.js';
import { IdTable } from '../work/id-table.js';
import { msSince } from '../work/whole-ms.js';

/**
 * The mirror's rows by member, one small number each: twice the vote's end in ms since the index was
 * made, plus one when it came through Discord. An entry object and its end cost about 64 B a voter, a
 * boxed end 16 B; a process keeps the voters of every server it polls, in an IdTable (no id strings).
 */
export class MirrorIndex {
  readonly #ends: IdTable;
  /** Epoch ms the ends count from: when this index (or the copy it was made from) was made. */
  readonly #origin: number;

  private constructor(ends: IdTable, origin: number) {
    this.#ends = ends;
    this.#origin = origin;
  }

  static of(entries: Iterable<MirrorEntry>): MirrorIndex {
    const origin = Date.now();
    const packed = (entry: MirrorEntry) => [entry.userId, pack(origin, entry)] as const;
    return new MirrorIndex(IdTable.of([...entries].map(packed)), origin);
  }

  /**
   * A copy counts from now: an index copied at every poll never drifts out of the small numbers' range.
   * Its numbers are these shifted by twice the origins' gap: whole, and an even shift keeps the low bit.
   */
  copy(): MirrorIndex {
    const origin = Date.now();
    const shift = 2 * (this.#origin - origin);
    return new MirrorIndex(
      this.#ends.mapped((packed) => packed + shift),
      origin,
    );
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
    this.#ends.set(entry.userId, pack(this.#origin, entry));
  }

  delete(userId: string): void {
    this.#ends.delete(userId);
  }

  userIds(): IterableIterator<string> {
    return this.#ends.ids();
  }
}

function pack(origin: number, entry: MirrorEntry): number {
  return 2 * msSince(origin, entry.expiresAt) + (entry.viaDiscord ? 1 : 0);
}
