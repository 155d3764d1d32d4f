/**
 * A number for each member id, for what a process keeps of every voter of every server it runs. In a
 * Map an entry cost ~70 B: its id string (40 B) and ~30 B of table. Here a Discord id (a decimal of up
 * to 20 digits, no leading zero) is two numbers, its digits above the last nine and its last nine,
 * kept with its value in three arrays sorted by id: 24 B an entry, and no string. Any other id (a
 * test's name, another list's) goes in a Map beside them. Adding or removing an id moves the ids after
 * it (a few thousand a poll at most); looking one up is a binary search.
 */
export class IdTable {
  #high: number[] = [];
  #low: number[] = [];
  #values: number[] = [];
  #others: Map<string, number> | undefined;

  /** A table of the given ids and values at once: sorted once, and each array exactly as long as it must be. */
  static of(entries: Iterable<readonly [string, number]>): IdTable {
    const table = new IdTable();
    const ids: Array<readonly [number, number, number]> = [];
    for (const [id, value] of entries) {
      if (split(id)) ids.push([splitHigh, splitLow, value]);
      else (table.#others ??= new Map()).set(id, value);
    }
    ids.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    // The last of an id given twice wins, as Map.set would have it.
    const kept = ids.filter((entry, i) => i + 1 === ids.length || !sameId(entry, ids[i + 1]!));
    table.#high = kept.map((entry) => entry[0]);
    table.#low = kept.map((entry) => entry[1]);
    table.#values = kept.map((entry) => entry[2]);
    return table;
  }

  get size(): number {
    return this.#values.length + (this.#others?.size ?? 0);
  }

  get(id: string): number | undefined {
    if (!split(id)) return this.#others?.get(id);
    const at = this.#find(splitHigh, splitLow);
    return at >= 0 ? this.#values[at] : undefined;
  }

  set(id: string, value: number): void {
    if (!split(id)) {
      (this.#others ??= new Map()).set(id, value);
      return;
    }
    const at = this.#find(splitHigh, splitLow);
    if (at >= 0) {
      this.#values[at] = value;
      return;
    }
    const before = -at - 1;
    this.#high.splice(before, 0, splitHigh);
    this.#low.splice(before, 0, splitLow);
    this.#values.splice(before, 0, value);
  }

  delete(id: string): boolean {
    if (!split(id)) return this.#others?.delete(id) ?? false;
    const at = this.#find(splitHigh, splitLow);
    if (at < 0) return false;
    this.#high.splice(at, 1);
    this.#low.splice(at, 1);
    this.#values.splice(at, 1);
    return true;
  }

  /** The same ids with each value changed by `change`, in arrays of their own. */
  mapped(change: (value: number) => number): IdTable {
    const table = new IdTable();
    table.#high = this.#high.slice();
    table.#low = this.#low.slice();
    table.#values = this.#values.map(change);
    if (this.#others) table.#others = new Map([...this.#others].map(([id, value]) => [id, change(value)]));
    return table;
  }

  /** Every id, each made into its string again. */
  *ids(): IterableIterator<string> {
    for (let i = 0; i < this.#values.length; i++) yield joinId(this.#high[i]!, this.#low[i]!);
    if (this.#others) yield* this.#others.keys();
  }

  /** Where the id is, or −(where it would go) − 1. */
  #find(high: number, low: number): number {
    let from = 0;
    let to = this.#values.length;
    while (from < to) {
      const mid = (from + to) >>> 1;
      const midHigh = this.#high[mid]!;
      if (midHigh < high || (midHigh === high && this.#low[mid]! < low)) from = mid + 1;
      else to = mid;
    }
    return from < this.#values.length && this.#high[from] === high && this.#low[from] === low ? from : -from - 1;
  }
}

const DISCORD_ID = /^[1-9][0-9]{0,19}$/;
const LOW_DIGITS = 9;

// What split() found, read at once by its caller: a lookup on the `/vote` path makes no pair object.
let splitHigh = 0;
let splitLow = 0;

/** A Discord id's digits above its last nine and its last nine, both exact as numbers; false for any other id. */
function split(id: string): boolean {
  if (!DISCORD_ID.test(id)) return false;
  splitHigh = id.length <= LOW_DIGITS ? 0 : Number(id.slice(0, -LOW_DIGITS));
  splitLow = Number(id.length <= LOW_DIGITS ? id : id.slice(-LOW_DIGITS));
  return true;
}

function joinId(high: number, low: number): string {
  return high === 0 ? String(low) : `${high}${String(low).padStart(LOW_DIGITS, '0')}`;
}

function sameId(a: readonly [number, number, number], b: readonly [number, number, number]): boolean {
  return a[0] === b[0] && a[1] === b[1];
}
