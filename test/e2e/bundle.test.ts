import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT, startCommand } from '../../tools/bot-process.js';

// `npm start` runs the bundle bundle.js writes (the other e2e suites start it); these check what a
// run could miss: a module loaded both from the bundle and from dist/src, a command left out, a
// CommonJS package imported (Node's loader would lex its source for export names first).
const BUNDLE = path.join(ROOT, 'dist/bundle');

function bundleFiles(dir = BUNDLE): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? bundleFiles(path.join(dir, entry.name))
      : entry.name.endsWith('.js')
        ? [path.join(dir, entry.name)]
        : [],
  );
}

/** Relative specifiers of static and dynamic imports, as esbuild writes them. */
function relativeImports(source: string): string[] {
  return [...source.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((match) => match[1] ?? '');
}

describe('the bundle npm start runs', () => {
  it('is what the start command names', () => {
    expect(startCommand().args.at(-1)).toBe('dist/bundle/src/processes/bot.js');
    expect(existsSync(path.join(BUNDLE, 'src/processes/bot.js'))).toBe(true);
  });

  it('imports nothing relative from outside itself, so no module of the bot loads twice', () => {
    const files = bundleFiles();
    const imports = files.flatMap((file) =>
      relativeImports(readFileSync(file, 'utf8')).map((specifier) => path.resolve(path.dirname(file), specifier)),
    );
    expect(imports.length).toBeGreaterThan(files.length);
    expect(imports.filter((target) => !target.startsWith(BUNDLE + path.sep))).toEqual([]);
    expect(imports.filter((target) => !existsSync(target))).toEqual([]);
  });

  it('requires the CommonJS packages it loads at start instead of importing them', () => {
    const sources = bundleFiles().map((file) => readFileSync(file, 'utf8'));
    for (const name of ['discord.js', 'pino', 'undici', 'dotenv']) {
      expect(sources.filter((source) => source.includes(`from "${name}"`))).toEqual([]);
      // esbuild numbers a repeated name: createRequire2, createRequire3…
      const required = new RegExp(`createRequire\\d*\\(import\\.meta\\.url\\)\\("${name}"\\)`);
      expect(sources.some((source) => required.test(source))).toBe(true);
    }
  });

  it('is ASCII in the file every start loads, so V8 keeps its source at one byte a character', () => {
    // esbuild escapes strings but keeps some comments as written: one character past ASCII in them made
    // V8 hold the whole 170 KB source as two bytes a character, in every process.
    // bot.js reads the command line and loads bot-run.js, which holds the bot.
    const [entry, bot] = ['bot.js', 'bot-run.js'].map((file) =>
      readFileSync(path.join(BUNDLE, 'src/processes', file), 'utf8'),
    );
    const beyondAscii = [entry!, bot!].flatMap((source) =>
      source
        .split('\n')
        .flatMap((line, index) =>
          [...line].some((char) => char.charCodeAt(0) > 0x7f) ? [`${index + 1}: ${line}`] : [],
        ),
    );
    expect(bot!.length).toBeGreaterThan(100_000);
    expect(beyondAscii).toEqual([]);
  });

  it('holds every command module, beside main as src/bot/load-commands.ts expects', () => {
    const built = readdirSync(path.join(ROOT, 'dist/commands')).filter((file) => file.endsWith('.js'));
    const bundled = readdirSync(path.join(BUNDLE, 'commands')).filter((file) => file.endsWith('.js'));
    expect(built.length).toBeGreaterThan(0);
    expect(bundled.sort()).toEqual(built.sort());
  });

  it("finds the stats drawing thread's script through package.json's imports", () => {
    const resolved = createRequire(path.join(BUNDLE, 'commands/stats.js')).resolve('#stats-draw-worker');
    expect(resolved).toBe(path.join(ROOT, 'dist/src/stats/draw-worker.js'));
    expect(existsSync(resolved)).toBe(true);
  });
});
