import type { InFlight } from '../bot/in-flight.js';
import { EXIT_FAILURE } from '../core/exit-codes.js';
import type { Logger } from '../core/log.js';
import { stopOnSignal } from '../core/stop-on-signal.js';

/**
 * On SIGINT/SIGTERM, a process that answers interactions lets those in flight finish (up to
 * `graceMs`, saying how many did not), then closes the rest with `then`. The whole stop is bounded
 * in case a close hangs on a dead socket: past it the process exits 1.
 */
export function drainOnSignal(options: {
  logger: Logger;
  inFlight: InFlight;
  graceMs: number;
  /** Told first: /healthz says the process is stopping. */
  stopping: () => void;
  then: () => Promise<void>;
}): void {
  const { logger, inFlight, graceMs } = options;
  stopOnSignal({
    logger,
    details: () => ({ inFlight: inFlight.size }),
    withinMs: graceMs + 5_000,
    lateExitCode: EXIT_FAILURE,
    async stop() {
      options.stopping();
      const unfinished = await inFlight.drain(graceMs);
      if (unfinished > 0) logger.warn({ unfinished }, 'interactions still running at shutdown');
      await options.then();
      logger.info('stopped');
    },
  });
}
