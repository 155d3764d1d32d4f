/**
 * A number for each member id, for what a process keeps of every voter of every server it runs. In a
 * Map an entry cost ~70 B: its id string (40 B) and ~30 B of table. Here a Discord id (a decimal of up
 * to 20 digits, no leading zero) is two numbers, its digits above the last nine and its last nine,
 * kept with its value in three arrays sorted by id: 24 B an entry, and no string. Any other id (a
 * test's name, another list's) goes in a Map beside them. Looking an id up is a binary search; adding or
 * removing one moves the ids after it in a small table, and waits for a merge in a big one.
 */
export class IdTable {
  #high: number[] = [];
  #low: number[] = [];
  #values: number[] = [];
  /** Entries of the arrays deleted and still there, their value NaN: a big table drops them at its next merge. */
  #holes = 0;
  /** A big table's new Discord ids, merged into the arrays once they are many. */
  #added: Map<string, number> | undefined;
  #others: Map<string, number> | undefined;

  /** A table of the given ids and values at once: sorted once, and each array exactly as long as it must be. */
  static of(entries: Iterable<readonly [string, number]>): IdTable {
    const table = new IdTable();
    const rows: Row[] = [];
    for (const [id, value] of entries) {
      if (split(id)) rows.push([splitHigh, splitLow, value]);
      else (table.#others ??= new Map()).set(id, value);
    }
    table.#fill(rows);
    return table;
  }

  get size(): number {
    return this.#values.length - this.#holes + (this.#added?.size ?? 0) + (this.#others?.size ?? 0);
  }

  get(id: string): number | undefined {
    if (!split(id)) return this.#others?.get(id);
    const at = this.#find(splitHigh, splitLow);
    if (at < 0) return this.#added?.get(id);
    const value = this.#values[at]!;
    return Number.isNaN(value) ? undefined : value;
  }

  set(id: string, value: number): void {
    if (!split(id)) {
      (this.#others ??= new Map()).set(id, value);
      return;
    }
    const at = this.#find(splitHigh, splitLow);
    if (at >= 0) {
      if (Number.isNaN(this.#values[at]!)) this.#holes--;
      this.#values[at] = value;
    } else if (this.#values.length < SPLICE_BELOW) {
      const before = -at - 1;
      this.#high.splice(before, 0, splitHigh);
      this.#low.splice(before, 0, splitLow);
      this.#values.splice(before, 0, value);
    } else {
      (this.#added ??= new Map()).set(id, value);
      this.#mergeWhenMany();
    }
  }

  delete(id: string): boolean {
    if (!split(id)) return this.#others?.delete(id) ?? false;
    const at = this.#find(splitHigh, splitLow);
    if (at < 0) return this.#added?.delete(id) ?? false;
    if (Number.isNaN(this.#values[at]!)) return false;
    if (this.#values.length < SPLICE_BELOW) {
      this.#high.splice(at, 1);
      this.#low.splice(at, 1);
      this.#values.splice(at, 1);
    } else {
      this.#values[at] = NaN;
      this.#holes++;
      this.#mergeWhenMany();
    }
    return true;
  }

  /** The same ids with each value changed by `change`, in a table of its own. */
  mapped(change: (value: number) => number): IdTable {
    const table = new IdTable();
    table.#high = this.#high.slice();
    table.#low = this.#low.slice();
    table.#values = this.#values.map((value) => (Number.isNaN(value) ? value : change(value)));
    table.#holes = this.#holes;
    table.#added = this.#added && mappedMap(this.#added, change);
    table.#others = this.#others && mappedMap(this.#others, change);
    return table;
  }

  /** Every id, each made into its string again. */
  *ids(): IterableIterator<string> {
    for (let i = 0; i < this.#values.length; i++)
      if (!Number.isNaN(this.#values[i]!)) yield joinId(this.#high[i]!, this.#low[i]!);
    if (this.#added) yield* this.#added.keys();
    if (this.#others) yield* this.#others.keys();
  }

  /**
   * A big table's deletes and new ids wait until they are an eighth of it, then go in one sort: each
   * change moving every id after it was quadratic for a server of 100,000 voters offered at once.
   */
  #mergeWhenMany(): void {
    if (this.#holes + (this.#added?.size ?? 0) <= this.#values.length >> 3) return;
    const rows: Row[] = [];
    for (let i = 0; i < this.#values.length; i++) {
      const value = this.#values[i]!;
      if (!Number.isNaN(value)) rows.push([this.#high[i]!, this.#low[i]!, value]);
    }
    for (const [id, value] of this.#added ?? []) if (split(id)) rows.push([splitHigh, splitLow, value]);
    this.#added = undefined;
    this.#holes = 0;
    this.#fill(rows);
  }

  /** The arrays made from these rows, sorted by id; of an id given twice the last wins, as Map.set would have it. */
  #fill(rows: Row[]): void {
    rows.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const kept = rows.filter((row, i) => i + 1 === rows.length || !sameId(row, rows[i + 1]!));
    this.#high = kept.map((row) => row[0]);
    this.#low = kept.map((row) => row[1]);
    this.#values = kept.map((row) => row[2]);
  }

  /** Where the id is, or -(where it would go) - 1. */
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

/** An id's two parts and its value. */
type Row = readonly [number, number, number];

/** A table smaller than this changes in place: moving a thousand ids costs less than a merge. */
const SPLICE_BELOW = 1_024;
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

function sameId(a: Row, b: Row): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

function mappedMap(map: Map<string, number>, change: (value: number) => number): Map<string, number> {
  return new Map([...map].map(([id, value]) => [id, change(value)]));
}
