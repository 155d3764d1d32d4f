// `npm run playground`, before anything is compiled (hence JavaScript): starting the playground builds
// first, so the bot and the stand-ins are the code in the tree; `send` runs what is built, since a
// build takes 10-40 s and the answer milliseconds (the playground it talks to was built when started).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';

const CLI = new URL('../../dist/tools/playground/cli.js', import.meta.url);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
// The playground itself takes no words, so a `send` anywhere is the send command.
const sends = args.includes('send');
const builds = !sends && !(existsSync(CLI) && args.some((arg) => arg === '-h' || arg === '--help'));

if (sends && !existsSync(CLI)) {
  process.stderr.write(
    'Nothing is built yet, so there is no playground to send to: start one with npm run playground ' +
      '(it builds first), or build with npm run build:tools.\n',
  );
  process.exitCode = 1;
} else {
  if (builds) build();
  if (process.exitCode === undefined) await import(CLI.href);
}

/** npm run build:tools, through the npm that runs this script when there is one. */
function build() {
  const npm = process.env.npm_execpath;
  const run = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build:tools'], { cwd: ROOT, stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build:tools'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
  if (run.status !== 0) {
    process.stderr.write('The build failed (above), so the playground did not start.\n');
    process.exitCode = run.status ?? 1;
  }
}
