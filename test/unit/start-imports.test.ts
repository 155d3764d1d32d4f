import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const STATIC_IMPORT = /^(?:import|export)(?!\s+type\b)[^'"]*?from\s+['"]([^'"]+)['"]|^import\s+['"]([^'"]+)['"]/gm;

/** The packages the bot's start loads: every static, non-type import from processes/bot-run.ts on (bot.ts only reads the command line first). */
function packagesLoadedAtStart(): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      const specifier = (match[1] ?? match[2])!;
      if (specifier.startsWith('.')) walk(path.resolve(path.dirname(file), specifier.replace(/\.js$/, '.ts')));
      else if (!specifier.startsWith('node:'))
        packages.add(
          specifier
            .split('/')
            .slice(0, specifier.startsWith('@') ? 2 : 1)
            .join('/'),
        );
    }
  };
  walk(path.join(ROOT, 'src/processes/bot-run.ts'));
  return packages;
}

describe("the bot's start", () => {
  it('loads discord.js and its own few packages', () => {
    expect(packagesLoadedAtStart()).toContain('discord.js');
  });

  // Each costs the resident memory of every bot that does not use it (issue 18: RSS at start).
  it.each([
    'pg',
    'prom-client',
    'pino-pretty',
    'better-sqlite3',
    'fastify',
    '@fastify/oauth2',
    '@fastify/secure-session',
  ])('loads %s only when a setting asks for it', (name) => {
    expect(packagesLoadedAtStart()).not.toContain(name);
  });
});
