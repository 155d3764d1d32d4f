import type { Logger } from '../core/log.js';
import { newReferenceId } from './error-outcome.js';

/**
 * Process-wide failures, logged with a reference id. A rejected promise nobody awaited is logged
 * and survived: one bad promise must not take every member's commands down with it. An uncaught
 * exception is logged and ends the process with code 1: after one, Node's docs say the process is
 * in an undefined state and continuing is unsafe; a supervisor (systemd, Docker, pm2) restarts it.
 */
export function installProcessGuards(
  logger: Logger,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  process.on('unhandledRejection', (err) =>
    logger.error({ err, referenceId: newReferenceId() }, 'unhandled rejection'),
  );
  process.on('uncaughtException', (err) => {
    logger.fatal({ err, referenceId: newReferenceId() }, 'uncaught exception; exiting');
    logger.flush();
    exit(1);
  });
}
