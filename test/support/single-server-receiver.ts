import { createLogger } from '../../src/core/log.js';
import { startReceiver, type Receiver, type ReceiverOptions } from '../../src/webhooks/receiver.js';
import { webhookTargets } from '../../src/webhooks/targets.js';

/**
 * The webhook receiver of a single-server install on an ephemeral loopback port: deliveries to
 * `/webhook` with `token` are for `guildId`. Tests override what they look at (store, log, limits).
 */
export function singleServerReceiver(
  guildId: string,
  token: string,
  options: Pick<ReceiverOptions, 'store'> & Partial<Omit<ReceiverOptions, 'targets'>>,
): Promise<Receiver> {
  return startReceiver({
    host: '127.0.0.1',
    port: 0,
    path: '/webhook',
    targets: webhookTargets({ path: '/webhook', serverToken: () => undefined, single: { guildId, token } }),
    logger: createLogger('silent'),
    inbox: { wake: () => undefined },
    ...options,
  });
}
