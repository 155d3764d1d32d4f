// How every process reads its settings, whichever fields it takes: .env first, every problem in one
// ConfigError (exit code 78), the result frozen.
import { config as loadDotenv } from 'dotenv';
import { EXIT_CONFIG } from '../core/exit-codes.js';
import { type Fields, readFields, type Values } from './fields.js';

export class ConfigError extends Error {
  /** A supervisor stops restarting on it: the same settings would fail again. */
  readonly exitCode = EXIT_CONFIG;

  constructor(readonly problems: readonly string[]) {
    super(
      [
        `The bot's configuration has ${problems.length} problem${problems.length === 1 ? '' : 's'}:`,
        ...problems.map((p) => `  - ${p}`),
        'Set these in .env (copy .env.example to .env to start) or in the environment.',
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
 * own setting), into process.env without overriding what is already set, then parses.
 */
export const fromDotenv =
  <T>(parse: (env: NodeJS.ProcessEnv) => T) =>
  (path?: string): T => {
    loadDotenv({ path, quiet: true });
    return parse(process.env);
  };

export function deepFreeze<T extends object>(value: T): T {
  for (const child of Object.values(value)) {
    // A key's bytes stay a Buffer (Node's crypto reads it); the object holding it is frozen.
    if (child && typeof child === 'object' && !ArrayBuffer.isView(child)) deepFreeze(child);
  }
  return Object.freeze(value);
}
