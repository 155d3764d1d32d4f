import { collectDefaultMetrics, Counter, Registry } from 'prom-client';

const PREFIX = 'vote_review_bot_';

/** A receiver process's /metrics: the process itself, what it stored and what it refused (names as in BotMetrics). */
export class ReceiverMetrics {
  private readonly registry = new Registry();
  private readonly stored = new Counter({
    name: `${PREFIX}webhook_events_stored_total`,
    help: 'Webhook events stored (and answered 200) by this receiver.',
    registers: [this.registry],
  });
  private readonly refusals = new Counter({
    name: `${PREFIX}webhook_refusals_total`,
    help: 'Webhook requests and connections the receiver refused or ignored, by reason (token, timeout, connection_cap, store_unavailable, …).',
    labelNames: ['reason'],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
  }

  eventStored(): void {
    this.stored.inc();
  }

  webhookRefused(reason: string): void {
    this.refusals.inc({ reason });
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}
