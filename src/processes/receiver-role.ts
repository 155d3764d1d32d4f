import { installProcessGuards } from '../bot/process-guards.js';
import { loadReceiverConfig, receiverSecretValues } from '../config/receiver.js';
import { createLogger } from '../core/log.js';
import { runReceiverProcess } from './receiver-process.js';

/** ROLE=receiver (or `npm run receiver`): the receiver alone until SIGINT or SIGTERM. */
export async function receiverRole(): Promise<void> {
  const config = loadReceiverConfig();
  const logger = createLogger(config.logLevel, receiverSecretValues(config), undefined, config.logFormat);
  installProcessGuards(logger);
  const stop = await runReceiverProcess(config, logger);
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), config.shutdownGraceMs + 5_000).unref();
    void stop().then(() => {
      logger.info('stopped');
      process.exit(0);
    });
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}
