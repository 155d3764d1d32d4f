// `npm run playground`, `npm run bench`, `npm run bench:drills`, before anything is compiled (hence
// JavaScript): `node tools/launch.js <script in dist> [--built-for=<word>]... [args]` builds first, so
// what runs is the code in the tree, except for --help and for the words named (the playground's
// `send`, whose answer takes milliseconds where a build takes 10-40 s): those run what is built.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const [script = '', ...rest] = process.argv.slice(2);
const builtFor = rest.filter((arg) => arg.startsWith('--built-for=')).map((arg) => arg.slice('--built-for='.length));
const args = rest.filter((arg) => !arg.startsWith('--built-for='));
const entry = new URL(`../dist/${script}`, import.meta.url);
const name = process.env.npm_lifecycle_event ?? script;
const word = args.find((arg) => builtFor.includes(arg));
const help = args.some((arg) => arg === '-h' || arg === '--help');
const builds = word === undefined && !(help && existsSync(entry));

if (!builds && !existsSync(entry)) {
  process.stderr.write(
    `Nothing is built yet, so ${word ?? 'this'} has nothing to run: build with npm run build:tools, or run ` +
      `npm run ${name}${word === undefined ? '' : ` without ${word}`} (it builds first).\n`,
  );
  process.exitCode = 1;
} else {
  if (builds) build();
  if (process.exitCode === undefined) {
    process.argv = [process.argv[0], fileURLToPath(entry), ...args];
    await import(entry.href);
  }
}

/** npm run build:tools, through the npm that runs this script when there is one. */
function build() {
  const npm = process.env.npm_execpath;
  const run = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build:tools'], { cwd: ROOT, stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build:tools'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
  if (run.status !== 0) {
    process.stderr.write(`The build failed (above), so npm run ${name} did not start.\n`);
    process.exitCode = run.status ?? 1;
  }
}
