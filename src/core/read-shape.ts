// Small hand-written readers for JSON bodies, in place of a schema library: a body is read once per
// answer on the hot path, and a library's start-up cost (heap, RSS) is paid by every process.
//
// A Reader<T> takes any value and answers Read<T>: the value as T, or every issue found, each with
// the path to the field and a short, value-free message. A Field<T> reads one field's value and
// answers T or a Wrong (its message); Fields reads an object field by field, collecting issues.

export type Path = (string | number)[];
export interface Issue {
  path: Path;
  message: string;
}
export type Read<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };
export type Reader<T> = (value: unknown) => Read<T>;

/** Why a field's value is not what is needed. Messages are fixed, so each Wrong is made once. */
export class Wrong {
  constructor(readonly message: string) {}
}
export type Field<T> = (value: unknown) => T | Wrong;

export const ok = <T>(value: T): Read<T> => ({ ok: true, value });
export const failed = (message: string, path: Path = []): Read<never> => ({ ok: false, issues: [{ path, message }] });

/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const NOT_A_STRING = new Wrong('expected a string');
const EMPTY_STRING = new Wrong('expected a non-empty string');
const NOT_A_BOOLEAN = new Wrong('expected a boolean');
const NOT_A_NUMBER = new Wrong('expected a number');
const NOT_A_COUNT = new Wrong('expected a whole number ≥ 0');

export const string: Field<string> = (value) => (typeof value === 'string' ? value : NOT_A_STRING);

export const nonEmptyString: Field<string> = (value) =>
  typeof value === 'string' && value.length > 0 ? value : EMPTY_STRING;

export const boolean: Field<boolean> = (value) => (typeof value === 'boolean' ? value : NOT_A_BOOLEAN);

/** A finite number (JSON has no others, but a reader does not rely on where its value came from). */
export const number: Field<number> = (value) =>
  typeof value === 'number' && Number.isFinite(value) ? value : NOT_A_NUMBER;

/** A count: a whole number ≥ 0 that a double holds exactly. */
export const count: Field<number> = (value) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : NOT_A_COUNT;

/** `field`, or absent (undefined). */
export function optional<T>(field: Field<T>): Field<T | undefined> {
  return (value) => (value === undefined ? undefined : field(value));
}

/** `field`, or absent, or null. */
export function nullish<T>(field: Field<T>): Field<T | null | undefined> {
  return (value) => (value === undefined || value === null ? value : field(value));
}

/** An array whose every item `item` reads; issues name the item's index. */
export function arrayOf<T>(item: Reader<T>): Reader<T[]> {
  return (value) => {
    if (!Array.isArray(value)) return failed('expected an array');
    const items: T[] = [];
    let issues: Issue[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const read = item(value[index]);
      if (read.ok) items.push(read.value);
      else (issues ??= []).push(...prefixed(index, read.issues));
    }
    return issues ? { ok: false, issues } : ok(items);
  };
}

function prefixed(key: string | number, issues: Issue[]): Issue[] {
  return issues.map((issue) => ({ path: [key, ...issue.path], message: issue.message }));
}

/**
 * An object's fields, read one by one; every issue is kept, in the order the fields are read.
 * Fields not read are ignored. A field that is wrong reads as undefined: build the result only
 * through done(), which does not call `build` once there is an issue.
 */
export class Fields {
  #issues: Issue[] | undefined;

  constructor(readonly source: Record<string, unknown>) {}

  field<T>(key: string, read: Field<T>): T {
    const value = read(this.source[key]);
    if (!(value instanceof Wrong)) return value;
    (this.#issues ??= []).push({ path: [key], message: value.message });
    return undefined as T;
  }

  /** Several fields at once, in the order `fields` names them; the answer has the same keys. */
  fields<S extends Record<string, Field<unknown>>>(fields: S): { [K in keyof S]: Exclude<ReturnType<S[K]>, Wrong> } {
    const values: Record<string, unknown> = {};
    for (const [key, read] of Object.entries(fields)) values[key] = this.field(key, read);
    return values as { [K in keyof S]: Exclude<ReturnType<S[K]>, Wrong> };
  }

  /** A field read by a whole reader (an array, a nested object): its issues' paths start with `key`. */
  nested<T>(key: string, reader: Reader<T>): T {
    const read = reader(this.source[key]);
    if (read.ok) return read.value;
    (this.#issues ??= []).push(...prefixed(key, read.issues));
    return undefined as T;
  }

  done<T>(build: () => T): Read<T> {
    return this.#issues ? { ok: false, issues: this.#issues } : ok(build());
  }
}

/** A reader of a JSON object, field by field; any other value is the issue that it is not an object. */
export function objectReader<T>(read: (at: Fields) => Read<T>): Reader<T> {
  return (value) => (isObject(value) ? read(new Fields(value)) : failed('expected an object'));
}

/** A short, value-free description of why a body was not read: up to three issues, `path: message`. */
export function describeIssues(issues: readonly Issue[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'body'}: ${issue.message}`)
    .join('; ');
}
