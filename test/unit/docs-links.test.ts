import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../tools/bot-process.js';

const PAGES = [
  'README.md',
  ...readdirSync(`${ROOT}docs`)
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

const read = (page: string) => readFileSync(path.join(ROOT, page), 'utf8');
const withoutCode = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchors(page: string): Set<string> {
  return new Set([...withoutCode(read(page)).matchAll(/^#{1,6} (.*)$/gm)].map((m) => slug(m[1]!)));
}

/** Every relative link of a page: [text](target#anchor), web addresses left out. */
function links(page: string): { target: string; anchor: string | undefined }[] {
  return [...withoutCode(read(page)).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((href) => !/^[a-z]+:/i.test(href))
    .map((href) => {
      const [file, anchor] = href.split('#') as [string, string | undefined];
      return { target: file === '' ? page : path.normalize(path.join(path.dirname(page), file)), anchor };
    });
}

describe('the README and docs/', () => {
  it('link only to files that exist, and to headings those files have', () => {
    const broken = PAGES.flatMap((page) =>
      links(page)
        .filter(
          ({ target, anchor }) =>
            !existsSync(path.join(ROOT, target)) ||
            (anchor !== undefined && target.endsWith('.md') && !anchors(target).has(anchor)),
        )
        .map(({ target, anchor }) => `${page} → ${target}${anchor === undefined ? '' : `#${anchor}`}`),
    );
    expect(broken).toEqual([]);
  });

  it('keep every line within 120 characters', () => {
    const long = PAGES.flatMap((page) =>
      read(page)
        .split('\n')
        .flatMap((line, i) => ([...line].length > 120 ? [`${page}:${i + 1} has ${[...line].length} characters`] : [])),
    );
    expect(long).toEqual([]);
  });

  it('keep the README a front door: under 150 lines, the two commands first', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThan(150);
    const firstBlock = /^```sh\n([\s\S]*?)^```/m.exec(readme)?.[1]?.trim().split('\n');
    expect(firstBlock?.map((line) => line.split(/\s+#/)[0]!.trim())).toEqual([
      'npm ci && npm run build && npm start',
      'npm test',
    ]);
  });
});
