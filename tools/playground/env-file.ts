import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The first line of every file the playground writes: it overwrites or removes only a file that starts so. */
export const ENV_FILE_HEADER = '# Written by npm run playground for this session; removed when it stops.';

/** Refused, with what to do instead. */
export class EnvFileError extends Error {}

/** How to start the bot with the file: dotenv reads DOTENV_CONFIG_PATH in place of .env. */
export function startLine(file: string, script = 'npm start'): string {
  // npm runs scripts in the project folder, where the playground runs too: a path inside it is shown short.
  const inside = path.relative(process.cwd(), file);
  const shown = inside && !inside.startsWith('..') && !path.isAbsolute(inside) ? inside : file;
  return `DOTENV_CONFIG_PATH=${shown.includes(' ') ? `"${shown}"` : shown} ${script}`;
}

/** Checks before anything starts that `file` may be written: never .env, never a file someone else wrote. */
export function checkEnvFile(file: string): void {
  if (path.basename(file) === '.env')
    throw new EnvFileError(`${file}: the playground never writes .env (your own settings); name another file.`);
  if (existsSync(file) && !readFileSync(file, 'utf8').startsWith(ENV_FILE_HEADER))
    throw new EnvFileError(
      `${file} exists and was not written by the playground; move it away or name another file with --env-out.`,
    );
}

export function writeEnvFile(file: string, settings: Record<string, string>): void {
  checkEnvFile(file);
  const lines = Object.entries(settings).map(([name, value]) => `${name}=${value}`);
  writeFileSync(file, [ENV_FILE_HEADER, `# Start the bot with: ${startLine(file)}`, ...lines, ''].join('\n'), {
    mode: 0o600,
  });
}

/** Removes the file if it is still the playground's own. */
export function removeEnvFile(file: string): void {
  if (existsSync(file) && readFileSync(file, 'utf8').startsWith(ENV_FILE_HEADER)) rmSync(file, { force: true });
}
