// Reading settings by hand: a schema library was the largest thing the bot loaded at start, for a
// few dozen strings. Each variable is read on its own, so one pass reports every problem.

/** A setting: what its variable means as written; raw is undefined when the variable is left out. */
export interface Field<T> {
  parse(raw: string | undefined): Parsed<T>;
}

export type Parsed<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problems: readonly Problem[] };

/** `at` points at one item of a list setting; the line then names `NAME.at`, as it always has. */
interface Problem {
  readonly message: string;
  readonly at?: number;
}

type FieldValue<F> = F extends Field<infer T> ? T : never;
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

/** Items separated by commas, blanks dropped; each must pass `valid`, else `message` names the one at fault. */
export const commaList =
  (valid: (item: string) => boolean, message: string): Check<string[]> =>
  (text) => {
    const items = text
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
    const problems = items.flatMap((item, at) => (valid(item) ? [] : [{ at, message }]));
    return problems.length === 0 ? ok(items) : { ok: false, problems };
  };

export const intInRange = (min: number, max: number, fallback: number) => orDefault(wholeNumber(min, max), fallback);

export const port = wholeNumber(1, 65_535, {
  notWhole: 'must be a port from 1 to 65535',
  under: 'must be a port from 1 to 65535',
  over: 'must be a port from 1 to 65535',
});

// Each hint says what belongs in the variable; it is shown with the problem.
export const yesNo =
  (hint: string): Check<boolean> =>
  (text) => {
    const value = text.trim().toLowerCase();
    return value === 'true' || value === 'false' ? ok(value === 'true') : fail(`must be true or false: ${hint}`);
  };
export const httpUrl = (hint: string) =>
  checked((value) => {
    try {
      const url = new URL(value);
      if (url.protocol === 'http:' || url.protocol === 'https:') return undefined;
    } catch {
      // not a URL at all: the same message
    }
    return `must be an http(s) URL: ${hint}`;
  });
// The parsers shared with other code throw; their message (worded for the setting) becomes its problem.
export const from =
  <T>(parse: (value: string) => T, wording: (message: string) => string = (message) => message): Check<T> =>
  (text) => {
    try {
      return ok(parse(text.trim()));
    } catch (error) {
      return fail(wording((error as Error).message));
    }
  };
/** Checked by a shared parser that throws; the setting keeps the text as written (trimmed). */
export const validatedBy = (validate: (value: string) => unknown, wording?: (message: string) => string) =>
  from((value) => {
    validate(value);
    return value;
  }, wording);

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
