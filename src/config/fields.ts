// Reading settings by hand: a schema library was the largest thing the bot loaded at start, for a
// few dozen strings. Each variable is read on its own, so one pass reports every problem.

/** A setting: what its variable means as written; raw is undefined when the variable is left out. */
export interface Field<T> {
  parse(raw: string | undefined): Parsed<T>;
}

export type Parsed<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problems: readonly Problem[] };

/** `at` points at one item of a list setting; the line then names `NAME.at`, as it always has. */
export interface Problem {
  readonly message: string;
  readonly at?: number;
}

export type FieldValue<F> = F extends Field<infer T> ? T : never;
export type Values<F> = { [K in keyof F]: FieldValue<F[K]> };
export type Fields = Readonly<Record<string, Field<unknown>>>;

/** What a value that is written (not blank) means. */
export type Check<T> = (text: string) => Parsed<T>;

export const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
export const fail = (...messages: string[]): Parsed<never> => ({
  ok: false,
  problems: messages.map((message) => ({ message })),
});

/** An empty line copied from .env.example is the same as a variable left out. */
export const field = <T>(check: Check<T>, unset: () => Parsed<T>): Field<T> => ({
  parse: (raw) => (raw === undefined || raw.trim() === '' ? unset() : check(raw)),
});
export const required = <T>(check: Check<T>, hint: string): Field<T> => field(check, () => fail(`is missing: ${hint}`));
export const optional = <T>(check: Check<T>): Field<T | undefined> => field<T | undefined>(check, () => ok(undefined));
export const orDefault = <T>(check: Check<T>, fallback: T): Field<T> => field(check, () => ok(fallback));

export const trimmed: Check<string> = (text) => ok(text.trim());
/** Trimmed, then refused with the message `problem` gives (undefined: fine). */
export const checked =
  (problem: (value: string) => string | undefined): Check<string> =>
  (text) => {
    const value = text.trim();
    const message = problem(value);
    return message === undefined ? ok(value) : fail(message);
  };
export const matching = (pattern: RegExp, message: string): Check<string> =>
  checked((value) => (pattern.test(value) ? undefined : message));

/** Compared as written, spaces and case included: ` info ` has always been refused. */
export const oneOf =
  <const C extends readonly string[]>(choices: C, message: string): Check<C[number]> =>
  (text) => {
    const choice = choices.find((c) => c === text);
    return choice === undefined ? fail(message) : ok(choice);
  };

export interface NumberWords {
  readonly notWhole: string;
  readonly under: string;
  readonly over: string;
}

export const wholeNumber =
  (min: number, max: number, words: Partial<NumberWords> = {}): Check<number> =>
  (text) => {
    const { notWhole = `must be a whole number from ${min} to ${max}` } = words;
    const { under = `must be at least ${min}`, over = `must be at most ${max}` } = words;
    // Number() as before: spaces around, 1e3, 0x10 and +5 are read as numbers.
    const n = Number(text);
    if (!Number.isInteger(n)) return fail(notWhole);
    // Past 2^53 the number read is not the one written; the range is reported too, as it always was.
    const problems = [
      ...(Number.isSafeInteger(n) ? [] : [notWhole]),
      ...(n < min ? [under] : []),
      ...(n > max ? [over] : []),
    ];
    return problems.length === 0 ? ok(n) : fail(...problems);
  };

export function pick<F extends Fields, K extends keyof F & string>(fields: F, names: readonly K[]): Pick<F, K> {
  return Object.fromEntries(names.map((name) => [name, fields[name]])) as Pick<F, K>;
}

/** Every field read from env: all the values, or every problem as a line `NAME message`. */
export function readFields<F extends Fields>(
  fields: F,
  env: NodeJS.ProcessEnv,
): { ok: true; values: Values<F> } | { ok: false; values: Partial<Values<F>>; problems: string[] } {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, setting] of Object.entries(fields)) {
    const parsed = setting.parse(env[name]);
    if (parsed.ok) values[name] = parsed.value;
    else problems.push(...parsed.problems.map((p) => `${name}${p.at === undefined ? '' : `.${p.at}`} ${p.message}`));
  }
  return problems.length === 0
    ? { ok: true, values: values as Values<F> }
    : { ok: false, values: values as Partial<Values<F>>, problems };
}
