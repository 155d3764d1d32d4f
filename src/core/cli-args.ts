import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Exit 2: the command line itself is wrong (as most command-line tools do). */
export const EXIT_USAGE = 2;

type Options = NonNullable<ParseArgsConfig['options']>;
/** What the scripts' flags parse to (none of them takes a flag more than once). */
type Values<O extends Options> = { [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string } & {
  help?: boolean;
};

/**
 * Every script's command line, one rule: `-h`/`--help` prints `usage` and exits 0, an unknown flag
 * or a stray argument prints the reason and the usage and exits 2. Either way the script must do
 * nothing else, so both answer `undefined`; the exit code is set (not forced) so the text is
 * flushed first, and nothing else has been started that would keep the process alive.
 */
export function readArgs<O extends Options>(
  usage: string,
  options: O,
  args: string[] = process.argv.slice(2),
): Values<O> | undefined {
  return readCommandLine(usage, options, args, false)?.values;
}

/** readArgs for a script that also takes words (`playground send /vote member:alice`): they come back in order. */
export function readCommandLine<O extends Options>(
  usage: string,
  options: O,
  args: string[] = process.argv.slice(2),
  allowPositionals = true,
): { values: Values<O>; positionals: string[] } | undefined {
  let parsed: { values: Values<O>; positionals: string[] };
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals,
    });
    parsed = { values: values as Values<O>, positionals };
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${usage}`);
    process.exitCode = EXIT_USAGE;
    return undefined;
  }
  if (parsed.values.help) {
    process.stdout.write(usage);
    process.exitCode = 0;
    return undefined;
  }
  return parsed;
}
