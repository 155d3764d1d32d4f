// How every process reads its settings, whichever fields it takes: .env first, every problem in one
// ConfigError (exit code 78), the result frozen.
import { resolve } from 'node:path';
import { config as loadDotenv } from 'dotenv';
import { EXIT_CONFIG } from '../core/exit-codes.js';
import { type Fields, readFields, type Values } from './fields.js';

/** Where to set what is missing when no settings file was read: one is made from the example. */
const NO_SETTINGS_FILE = 'Set these in .env (copy .env.example to .env to start) or in the environment.';

/** Where to set what is missing when this settings file was read: it is there already, it lacks them. */
const settingsFileClosing = (file: string): string => `Set these in ${file} or in the environment.`;

export class ConfigError extends Error {
  /** A supervisor stops restarting on it: the same settings would fail again. */
  readonly exitCode = EXIT_CONFIG;

  constructor(
    readonly problems: readonly string[],
    readonly closing = NO_SETTINGS_FILE,
  ) {
    super(
      [
        `The bot's configuration has ${problems.length} problem${problems.length === 1 ? '' : 's'}:`,
        ...problems.map((p) => `  - ${p}`),
        closing,
      ].join('\n'),
    );
    this.name = 'ConfigError';
  }
}

/** Every problem at once, each line starting with the variable's name. */
export function readOrThrow<F extends Fields>(fields: F, env: NodeJS.ProcessEnv): Values<F> {
  const read = readFields(fields, env);
  if (!read.ok) throw new ConfigError(read.problems);
  return read.values;
}

/**
 * A process's loader from its parser: it reads .env, or the file DOTENV_CONFIG_PATH names (dotenv's
 * own setting), into process.env without overriding what is already set, then parses. A missing .env
 * is fine (the environment may hold everything); a named file that cannot be read is not: every
 * setting in it would silently count as unset.
 */
export const fromDotenv =
  <T>(parse: (env: NodeJS.ProcessEnv) => T) =>
  (path?: string): T => {
    const named = path ?? (process.env.DOTENV_CONFIG_PATH || undefined);
    const { error } = loadDotenv({ path, quiet: true });
    if (named !== undefined && error) throw unreadableEnvFile(named, error);
    try {
      return parse(process.env);
    } catch (problem) {
      // A file was read: telling the operator to make one from the example would send them astray.
      if (error || !(problem instanceof ConfigError) || problem.closing !== NO_SETTINGS_FILE) throw problem;
      throw new ConfigError(problem.problems, settingsFileClosing(named ?? '.env'));
    }
  };

function unreadableEnvFile(file: string, error: Error): ConfigError {
  const where = resolve(file);
  const why =
    (error as NodeJS.ErrnoException).code === 'ENOENT'
      ? `there is no file ${where}`
      : `${where} cannot be read (${(error as NodeJS.ErrnoException).code ?? error.message})`;
  return new ConfigError(
    [`DOTENV_CONFIG_PATH names ${file}, but ${why}`],
    'Fix the file name in DOTENV_CONFIG_PATH (or unset it to read .env), then start again.',
  );
}

export function deepFreeze<T extends object>(value: T): T {
  for (const child of Object.values(value)) {
    // A key's bytes stay a Buffer (Node's crypto reads it); the object holding it is frozen.
    if (child && typeof child === 'object' && !ArrayBuffer.isView(child)) deepFreeze(child);
  }
  return Object.freeze(value);
}
