import { loadReceiverConfig, receiverSecretValues } from '../config/receiver.js';
import { processLogger } from './process-logger.js';
import { drainOnSignal } from './drain-on-signal.js';
import { runReceiverProcess } from './receiver-process.js';

/** ROLE=receiver (or `npm run receiver`): the receiver alone until SIGINT or SIGTERM. */
export async function receiverRole(): Promise<void> {
  const config = loadReceiverConfig();
  const logger = processLogger(config, receiverSecretValues(config));
  const stopReceiver = await runReceiverProcess(config, logger);
  drainOnSignal({ logger, graceMs: config.shutdownGraceMs, then: stopReceiver });
}
