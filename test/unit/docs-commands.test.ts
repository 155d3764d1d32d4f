import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../tools/bot-process.js';
import { commandNames } from '../support/command-names.js';

const PAGES = [
  'README.md',
  ...readdirSync(`${ROOT}docs`)
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** A page's sentences that say what the bot registers and name commands: its lists of the commands. */
function commandLists(page: string): { page: string; names: string[] }[] {
  return readFileSync(path.join(ROOT, page), 'utf8')
    .split(/\.\s|\n\s*\n/)
    .filter((sentence) => /\bregisters\b/.test(sentence))
    .map((sentence) => ({ page, names: [...sentence.matchAll(/`\/([a-z-]+)/g)].map((m) => m[1]!) }))
    .filter(({ names }) => names.length > 1);
}

describe('the commands the docs list', () => {
  const lists = PAGES.flatMap(commandLists);

  it('are where an operator and an admin look: the hosting page and the admins page', () => {
    expect(lists.map((list) => list.page).sort()).toEqual(
      expect.arrayContaining(['docs/for-admins.md', 'docs/hosting.md']),
    );
  });

  it.each(PAGES.flatMap(commandLists))('in $page are the ones commands/ registers, each once', ({ names }) => {
    expect([...names].sort()).toEqual(commandNames());
  });
});
