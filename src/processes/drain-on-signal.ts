import type { InFlight } from '../bot/in-flight.js';
import { EXIT_FAILURE } from '../core/exit-codes.js';
import type { Logger } from '../core/log.js';
import { stopOnSignal } from '../core/stop-on-signal.js';

/**
 * Every long-running process's stop. On SIGINT/SIGTERM, one that answers interactions lets those in
 * flight finish (up to `graceMs`, saying how many did not), then closes the rest with `then`. The whole
 * stop is bounded in case a close hangs on a dead socket: past it the process exits with
 * `lateExitCode` (1 unless the process says otherwise).
 */
export function drainOnSignal(options: {
  logger: Logger;
  inFlight?: InFlight;
  graceMs: number;
  /** Told first: /healthz says the process is stopping. */
  stopping?: () => void;
  then: () => Promise<void>;
  lateExitCode?: number;
}): void {
  const { logger, inFlight, graceMs } = options;
  stopOnSignal({
    logger,
    details: () => (inFlight ? { inFlight: inFlight.size } : {}),
    withinMs: graceMs + 5_000,
    lateExitCode: options.lateExitCode ?? EXIT_FAILURE,
    async stop() {
      options.stopping?.();
      const unfinished = inFlight ? await inFlight.drain(graceMs) : 0;
      if (unfinished > 0) logger.warn({ unfinished }, 'interactions still running at shutdown');
      await options.then();
      logger.info('stopped');
    },
  });
}
