import { FatalStartError } from '../core/exit-codes.js';
import { ConfigError } from '../config/load.js';
import { exitCodeOf } from '../core/exit-codes.js';
import { StoreError } from '../store/index.js';

/**
 * Start-up failures are the operator's to fix: one line saying what and how, no stack trace. The
 * exit code tells a supervisor whether to try again (1) or wait for a changed setting (78).
 */
export function exitOnStartFailure(error: unknown, what: string): never {
  if (error instanceof ConfigError || error instanceof FatalStartError || error instanceof StoreError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`${what} could not start: ${(error as Error)?.message ?? String(error)}\n`);
  }
  process.exit(exitCodeOf(error));
}

/** Runs a process's start; a failure to start exits with its code and the fix, saying what could not start. */
export function startOrExit(start: () => Promise<void>, what: string): void {
  start().catch((error: unknown) => exitOnStartFailure(error, what));
}
