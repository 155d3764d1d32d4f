import { installProcessGuards } from '../bot/process-guards.js';
import { loadReceiverConfig, receiverSecretValues } from '../config/receiver.js';
import { EXIT_FAILURE } from '../core/exit-codes.js';
import { createLogger } from '../core/log.js';
import { warnUnknownSettings } from './unknown-settings-log.js';
import { stopOnSignal } from '../core/stop-on-signal.js';
import { runReceiverProcess } from './receiver-process.js';

/** ROLE=receiver (or `npm run receiver`): the receiver alone until SIGINT or SIGTERM. */
export async function receiverRole(): Promise<void> {
  const config = loadReceiverConfig();
  const logger = createLogger(config.logLevel, receiverSecretValues(config), undefined, config.logFormat);
  warnUnknownSettings(logger);
  installProcessGuards(logger);
  const stopReceiver = await runReceiverProcess(config, logger);
  stopOnSignal({
    logger,
    withinMs: config.shutdownGraceMs + 5_000,
    lateExitCode: EXIT_FAILURE,
    async stop() {
      await stopReceiver();
      logger.info('stopped');
    },
  });
}
