import { EXIT_USAGE } from '../src/core/cli-args.js';

/**
 * The names `--only=a,b` picks, or undefined for all. A name the script does not know would run
 * nothing and say nothing, so it is refused (exit 2) with the names it knows; then `false`.
 */
export function onlyNames(
  given: string | undefined,
  known: string[],
  what: string,
  usage: string,
): string[] | undefined | false {
  const names = given?.split(',');
  const unknown = (names ?? []).filter((name) => !known.includes(name));
  if (unknown.length === 0) return names;
  process.stderr.write(
    `--only: no ${what} named ${unknown.join(', ')}; the ${what}s are ${known.join(', ')}.\n\n${usage}`,
  );
  process.exitCode = EXIT_USAGE;
  return false;
}
