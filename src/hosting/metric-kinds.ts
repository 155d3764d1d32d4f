import { collectDefaultMetrics, Counter, Registry } from 'prom-client';

/** Every series of every process is named under this prefix, so one dashboard reads them all. */
export const PREFIX = 'vote_review_bot_';

/** A process's own registry, with prom-client's process and Node metrics under the prefix. */
export function processRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: PREFIX });
  return registry;
}

/** Counted by the bot's receiver and by a receiver process alike, under one name. */
export function webhookRefusals(registry: Registry): Counter<'reason'> {
  return new Counter({
    name: `${PREFIX}webhook_refusals_total`,
    help: 'Webhook requests and connections the receiver refused or ignored, by reason (token, timeout, connection_cap, store_unavailable, …).',
    labelNames: ['reason'],
    registers: [registry],
  });
}
