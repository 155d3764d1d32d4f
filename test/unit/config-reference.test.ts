import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type { Field } from '../../src/config/fields.js';
import { SETTINGS } from '../../src/config/settings.js';
import { ROOT } from '../../tools/bot-process.js';

const REFERENCE = 'docs/configuration.md';
const EXAMPLE = '.env.example';
const read = (file: string) => readFileSync(`${ROOT}${file}`, 'utf8');

/**
 * Settings with no line in .env.example, each with the reason. `docker run --env-file` sets every
 * line of the file, empty ones too, over the image's own settings.
 */
const NOT_IN_EXAMPLE: Record<string, string> = {
  HEALTH_PORT: 'the image sets it for its HEALTHCHECK; an empty line in an --env-file would turn that port off',
};

/** What a setting is when left out: required, without a value (off, or derived at start), or a value. */
type Default = { kind: 'required' } | { kind: 'none' } | { kind: 'value'; value: unknown } | { kind: 'unreadable' };

function schemaDefault(field: Field<unknown>): Default {
  const result = field.parse(undefined);
  if (!result.ok) return { kind: 'required' };
  const value = result.value;
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return { kind: 'none' };
  return { kind: 'value', value };
}

/** A default as written, read through the setting's own field so `file:./x` and its parsed form compare. */
function writtenValue(field: Field<unknown>, text: string): Default {
  const result = field.parse(text);
  return result.ok ? { kind: 'value', value: result.value } : { kind: 'unreadable' };
}

const describeDefault = (d: Default) => (d.kind === 'value' ? JSON.stringify(d.value) : d.kind);

function mismatch(name: string, file: string, written: Default, expected: Default): string[] {
  return isDeepStrictEqual(written, expected)
    ? []
    : [
        `${name}: ${file} gives the default ${describeDefault(written)}, src/config/settings.ts ${describeDefault(expected)}`,
      ];
}

/** The reference table's rows: `| \`NAME\` | default | meaning |`. */
function referenceRows(): { name: string; defaultCell: string }[] {
  return [...read(REFERENCE).matchAll(/^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|\s*([^|]*?)\s*\|/gm)].map((m) => ({
    name: m[1]!,
    defaultCell: m[2]!,
  }));
}

/** Assignment lines of .env.example, commented out (`# NAME=value`, showing the default) or not (`NAME=`). */
function exampleLines(): { name: string; commented: boolean; value: string }[] {
  return [...read(EXAMPLE).matchAll(/^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => ({
    name: m[2]!,
    commented: m[1] !== undefined,
    value: m[3]!.trim(),
  }));
}

/** A default written in prose, a number or an address: `default 30`, `default: \`4\``, `by default 512`. */
const PROSE_DEFAULT = /\bdefault:?\s+`?(\d[^\s,;)`]*?)[:.]?(?=[\s,;)`]|$)/g;

/** Whether `text` is a default some of `names` has, read through each setting's own field. */
function isDefaultOfOne(text: string, names: string[]): boolean {
  return names.some((name) => {
    const field = SETTINGS[name];
    return field !== undefined && isDeepStrictEqual(writtenValue(field, text), schemaDefault(field));
  });
}

/**
 * .env.example's blocks: the comment lines above a run of settings, joined into one text, and the
 * names of those settings (a comment's "(default 30)" speaks of one of them).
 */
function exampleBlocks(): { prose: string; names: string[] }[] {
  const blocks: { prose: string; names: string[] }[] = [];
  let prose: string[] = [];
  let names: string[] = [];
  for (const line of read(EXAMPLE).split('\n')) {
    const setting = /^(?:#\s*)?([A-Z][A-Z0-9_]*)=/.exec(line);
    if (setting) {
      names.push(setting[1]!);
      continue;
    }
    if (names.length > 0) blocks.push({ prose: prose.join(' '), names });
    if (names.length > 0 || !line.startsWith('#')) [prose, names] = [[], []];
    if (line.startsWith('#')) prose.push(line.replace(/^#\s?/, ''));
  }
  if (names.length > 0) blocks.push({ prose: prose.join(' '), names });
  return blocks;
}

/** Pages whose prose may give a setting's default: the README and docs/ (the reference table has its own test). */
const PROSE_PAGES = [
  'README.md',
  ...readdirSync(`${ROOT}docs`)
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

function countProblems(names: string[], file: string, skip: Record<string, string> = {}): string[] {
  const known = Object.keys(SETTINGS);
  return [
    ...known
      .filter((name) => !(name in skip))
      .map((name) => [name, names.filter((n) => n === name).length] as const)
      .filter(([, count]) => count !== 1)
      .map(([name, count]) => `${name}: ${count === 0 ? 'missing from' : `${count} times in`} ${file}`),
    ...names
      .filter((name) => !known.includes(name))
      .map((name) => `${name}: in ${file}, but src/config/settings.ts has no such setting`),
  ];
}

describe('the configuration reference, docs/configuration.md', () => {
  it('has exactly one row for every setting src/config/settings.ts reads, and none for a setting it does not', () => {
    expect(
      countProblems(
        referenceRows().map((row) => row.name),
        REFERENCE,
      ),
    ).toEqual([]);
  });

  it('gives each setting the default src/config/settings.ts gives it', () => {
    const problems = referenceRows().flatMap(({ name, defaultCell }) => {
      const field = SETTINGS[name];
      if (!field) return [];
      const quoted = /^`(.*)`$/.exec(defaultCell);
      const written: Default = quoted
        ? writtenValue(field, quoted[1]!)
        : defaultCell === 'required'
          ? { kind: 'required' }
          : defaultCell === '—'
            ? { kind: 'none' }
            : { kind: 'unreadable' };
      return mismatch(name, REFERENCE, written, schemaDefault(field));
    });
    expect(problems).toEqual([]);
  });
});

describe('.env.example', () => {
  it('has exactly one line for every setting, commented out or not, except the ones kept out on purpose', () => {
    expect(
      countProblems(
        exampleLines().map((line) => line.name),
        EXAMPLE,
        NOT_IN_EXAMPLE,
      ),
    ).toEqual([]);
  });

  it('shows each default as a commented-out line, and leaves the lines it does not comment out empty', () => {
    const problems = exampleLines().flatMap(({ name, commented, value }) => {
      const field = SETTINGS[name];
      if (!field) return [];
      const expected = schemaDefault(field);
      if (!commented)
        return value !== ''
          ? [`${name}: ${EXAMPLE} sets it to a value; only a commented-out line may show one`]
          : expected.kind === 'value'
            ? mismatch(name, EXAMPLE, { kind: 'none' }, expected)
            : [];
      if (expected.kind === 'required') return [`${name}: ${EXAMPLE} comments out a required setting`];
      return mismatch(name, EXAMPLE, value === '' ? { kind: 'none' } : writtenValue(field, value), expected);
    });
    expect(problems).toEqual([]);
  });

  it("gives in its comments the defaults src/config/settings.ts gives (a comment's default is one of its settings')", () => {
    const problems = exampleBlocks().flatMap(({ prose, names }) =>
      [...prose.matchAll(PROSE_DEFAULT)]
        .map((m) => m[1]!)
        .filter((text) => !isDefaultOfOne(text, names))
        .map((text) => `${EXAMPLE}: "default ${text}" is the default of none of ${names.join(', ')}`),
    );
    expect(problems).toEqual([]);
  });

  it('keeps out only settings that exist, are in the reference, and really have no line', () => {
    const lines = exampleLines().map((line) => line.name);
    const rows = referenceRows().map((row) => row.name);
    for (const name of Object.keys(NOT_IN_EXAMPLE)) {
      expect(SETTINGS).toHaveProperty(name);
      expect(rows).toContain(name);
      expect(lines).not.toContain(name);
    }
  });
});

describe('the README and docs/', () => {
  it('give a setting the default src/config/settings.ts gives it where they name one: `NAME` (default 30)', () => {
    const problems = PROSE_PAGES.flatMap((page) =>
      [...read(page).matchAll(new RegExp(`\`([A-Z][A-Z0-9_]{2,})\`([^.;\`]{0,60}?)${PROSE_DEFAULT.source}`, 'g'))]
        .filter((m) => m[1]! in SETTINGS && !isDefaultOfOne(m[3]!, [m[1]!]))
        .map(
          (m) =>
            `${page}: ${m[1]} "default ${m[3]}", src/config/settings.ts ${describeDefault(schemaDefault(SETTINGS[m[1]!]!))}`,
        ),
    );
    expect(problems).toEqual([]);
  });
});
