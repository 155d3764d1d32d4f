import { flushLogNow, type Logger } from './log.js';

const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/**
 * Runs `first` on the first SIGINT or SIGTERM, once. After it, without `again`, the other signal is
 * ignored and the same one again meets Node's default: the process ends at once, which is how an
 * operator forces a stop that hangs. With `again`, every later signal runs it instead.
 * Returns a function that takes both listeners away (to swap an early stop for the full one).
 */
export function onStopSignal(
  first: (signal: NodeJS.Signals) => void,
  again?: (signal: NodeJS.Signals) => void,
): () => void {
  let signalled = false;
  const listener = (signal: NodeJS.Signals) => {
    if (!signalled) {
      signalled = true;
      first(signal);
    } else again?.(signal);
  };
  for (const signal of STOP_SIGNALS) {
    if (again) process.on(signal, listener);
    else process.once(signal, listener);
  }
  return () => {
    for (const signal of STOP_SIGNALS) process.off(signal, listener);
  };
}

export interface GracefulStop {
  logger: Logger;
  /** Said with the signal on the 'shutting down' line, read when the signal comes. */
  details?: () => Record<string, unknown>;
  /** Everything the process closes, in order; the process exits 0 once it is done. */
  stop: () => Promise<void>;
  /** A bound on the whole stop, in case a close hangs on a dead socket: past it the process exits anyway. */
  withinMs: number;
  /** The exit code when the bound is reached. */
  lateExitCode: number;
}

/**
 * A long-running process's stop: on the first SIGINT or SIGTERM, say so, close everything, exit 0
 * (or `lateExitCode` past `withinMs`). A second signal is treated as `onStopSignal` says.
 */
export function stopOnSignal({ logger, details, stop, withinMs, lateExitCode }: GracefulStop): () => void {
  return onStopSignal((signal) => {
    logger.info({ signal, ...details?.() }, 'shutting down');
    // The log is written in batches: a second signal ends the process at once, and the line with it
    // unless it is already written.
    flushLogNow(logger);
    setTimeout(() => process.exit(lateExitCode), withinMs).unref();
    void stop().then(() => process.exit(0));
  });
}
