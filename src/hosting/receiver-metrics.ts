import { Counter } from 'prom-client';
import { PREFIX, processRegistry, webhookRefusals } from './metric-kinds.js';

/** A receiver process's /metrics: the process itself, what it stored and what it refused (names as in BotMetrics). */
export class ReceiverMetrics {
  private readonly registry = processRegistry();
  private readonly stored = new Counter({
    name: `${PREFIX}webhook_events_stored_total`,
    help: 'Webhook events stored (and answered 200) by this receiver.',
    registers: [this.registry],
  });
  private readonly refusals = webhookRefusals(this.registry);

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
