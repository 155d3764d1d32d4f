import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { GATES } from '../../src/bot/permissions.js';
import { SERVER_PAGES } from '../../src/dashboard/nav.js';
import { en } from '../../src/i18n/catalogs/en.js';
import { LIST_SITE_IDS, LIST_SITES, SITE_FACTS } from '../../src/lists/index.js';

// docs/development.md's recipes name the files a usual change touches. These checks fail when the code
// and a recipe disagree: a site, a page or a command missing a part the recipe names, or a site named
// by its id in a place the recipe says is made from the site list.

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const exists = (file: string) => existsSync(path.join(ROOT, file));
const catalog: Readonly<Record<string, string>> = en;

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(folder, file));
}

describe('the recipes in docs/development.md', () => {
  const recipes = read('docs/development.md').split('## Recipes')[1] ?? '';

  it('name only files that exist (a <placeholder> aside)', () => {
    const named = [...recipes.matchAll(/`((?:src|commands|tools|test|docs)\/[^`<*\s]+\.(?:ts|md))`/g)].map(
      (m) => m[1]!,
    );
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((file) => !exists(file))).toEqual([]);
  });

  describe('add a listing site', () => {
    const senders = read('tools/list-senders/senders.ts');
    const lists = read('docs/lists.md');
    it.each(LIST_SITE_IDS)('%s has its file, steps, sender, docs section and tests', (site) => {
      expect(exists(`src/lists/${site}.ts`)).toBe(true);
      expect(LIST_SITES[site].id).toBe(site);
      expect(catalog[`setup.listing.steps.${site}`]).toEqual(expect.any(String));
      expect(senders).toMatch(new RegExp(`^  ${site}: \\{ build: `, 'm'));
      expect(lists).toContain(`\n## ${SITE_FACTS[site].name}\n`);
      expect(exists(`test/unit/lists/${site}.test.ts`)).toBe(true);
    });

    it('leaves every other place to the site list: no code outside src/lists names a site by its id', () => {
      const quoted = new RegExp(`(['"\`])(${LIST_SITE_IDS.join('|')})\\1`);
      const kept = (file: string) =>
        !file.startsWith('src/lists/') && !file.startsWith('src/i18n/catalogs/') && file !== 'src/store/migrations.ts';
      const naming = [...sourceFiles('src'), ...sourceFiles('commands')]
        .filter(kept)
        .filter((file) => quoted.test(read(file)));
      expect(naming).toEqual([]);
    });
  });

  describe('add a dashboard page', () => {
    const registry = read('src/dashboard/routes/index.ts');
    it.each(SERVER_PAGES.map((page) => page.id))('%s has its view, its routes and their registration', (id) => {
      expect(exists(`src/dashboard/pages/${id}.ts`)).toBe(true);
      expect(exists(`src/dashboard/routes/${id}.ts`)).toBe(true);
      expect(registry).toMatch(new RegExp(`^  ${id}: ${id}Routes,$`, 'm'));
    });

    it('registers routes only for the pages in the menu', () => {
      const routeFiles = readdirSync(path.join(ROOT, 'src/dashboard/routes'))
        .map((file) => file.replace(/\.ts$/, ''))
        .filter((name) => registry.includes(`${name}Routes`));
      expect(routeFiles.sort()).toEqual(SERVER_PAGES.map((page) => page.id).sort());
    });
  });

  describe('add a command with a gate', () => {
    const commands = readdirSync(path.join(ROOT, 'commands')).map((file) => file.replace(/\.ts$/, ''));
    const admins = read('docs/for-admins.md').split('\n## ')[1] ?? '';
    it.each(commands)('/%s has its gate, its names in the catalogs and its line for admins', (name) => {
      const gate = /^export const gate: Gate = '(\w+)';$/m.exec(read(`commands/${name}.ts`))?.[1] ?? 'member';
      expect(GATES).toContain(gate);
      expect(catalog[`command.${name}.name`]).toBe(name);
      expect(catalog[`command.${name}.description`]).toEqual(expect.any(String));
      expect(admins).toContain(`\`/${name}\``);
    });
  });
});
