import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../tools/bot-process.js';

/** Where the production install line is written out for operators; the Dockerfile and the other docs say the same. */
export const PRODUCTION_INSTALL_DOC = 'docs/hosting.md';
/** Flags that change only what npm prints, not what it installs. */
const QUIET_FLAGS = new Set(['--no-audit', '--no-fund']);

/** Every file an operator reads an install command from: the Dockerfile, the README, docs/ and deploy/. */
export function installPlaces(): string[] {
  const under = (dir: string): string[] =>
    readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? under(`${dir}/${entry.name}`) : [`${dir}/${entry.name}`],
    );
  return ['Dockerfile', 'README.md', ...under('docs').filter((f) => f.endsWith('.md')), ...under('deploy')];
}

/** The npm commands a file gives (up to a backtick, `&&`, a comment or the line's end), continuations joined. */
export function npmCommands(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/\\\n\s*/g, ' ');
  return [...text.matchAll(/\bnpm (?:ci|install|i|prune)\b[^`\n#&]*/g)].map((m) => m[0].trim());
}

/** What an install installs: its words without the ones that only quiet npm. */
export const installWords = (command: string) => command.split(/\s+/).filter((word) => !QUIET_FLAGS.has(word));

/** Production installs: the npm ci lines that leave the dev dependencies out. */
export const isProductionInstall = (command: string) =>
  /^npm ci\b/.test(command) && installWords(command).includes('--omit=dev');

/** The production install line as docs/hosting.md gives it: the one every other place must match. */
export function productionInstall(): string {
  const lines = new Set(npmCommands(PRODUCTION_INSTALL_DOC).filter(isProductionInstall));
  if (lines.size !== 1) throw new Error(`${PRODUCTION_INSTALL_DOC} gives ${lines.size} production install lines`);
  return [...lines][0]!;
}
