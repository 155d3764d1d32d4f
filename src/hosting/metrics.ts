import { Counter, Gauge, Histogram } from 'prom-client';
import type { AttemptInfo, RateLimitEvent } from '../api/index.js';
import type { HandledInfo } from '../bot/router.js';
import type { RateLimitKind } from '../core/discord-rate-limits.js';
import type { WorkCounts } from '../store/index.js';
import { PREFIX, processRegistry, webhookRefusals } from './metric-kinds.js';

/** Handling time: most answers come from the cache or a fast service; deferred ones take seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** First response: Discord's window is 3 s, the bot defers at 1.8 s; fine steps around both. */
const ACK_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 2.5, 3, 5];
const ATTEMPT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** Interaction callback types as Discord numbers them (InteractionResponseType), named for the label. */
const CALLBACK_TYPES: Readonly<Record<number, string>> = {
  4: 'reply',
  5: 'deferred_reply',
  6: 'deferred_update',
  7: 'update',
  9: 'modal',
};

/** Interactions waiting for their first response; past this many, new ones go unmeasured. */
const MAX_PENDING_ACKS = 10_000;

/** Each series' help text, by its name under the prefix. */
const HELP = {
  interactions_total: 'Interactions handled, by handler and outcome (ok, refused, error).',
  interaction_failures_total:
    'Interactions that ended in a message about a failure, by handler and cause (circuit_open counts calls refused by the open circuit breaker).',
  interaction_duration_seconds: 'Time from receiving an interaction to the end of its handling, by handler.',
  interaction_first_response_seconds:
    "Time from receiving an interaction to Discord's answer to its first response (reply, deferral or modal); Discord allows 3 s.",
  interaction_responses_total: 'Interaction callbacks sent to Discord, by type and whether Discord accepted them.',
  service_attempts_total:
    'HTTP attempts to the votes and reviews service, by route and result (the status code, or the transport error).',
  service_attempt_duration_seconds: 'Duration of HTTP attempts to the votes and reviews service, by route.',
  service_rate_limited_total:
    "Calls the service's rate limit held back, by outcome: waited (then sent), failed_fast (window closed past the call's budget; nothing sent).",
  discord_rate_limited_total:
    'Discord requests held back, by kind: paced (discord.js waited for its own count of a bucket or the global budget), refused (Discord answered 429).',
  interactions_in_flight: 'Interactions being handled now.',
  ready: '1 once the Discord client is ready, 0 before and during shutdown.',
  gateway_connected: '1 while the gateway connection is up and ready, 0 while it reconnects or resumes.',
  gateway_ping_seconds: 'Average gateway heartbeat round trip (absent until the first heartbeat is acknowledged).',
  work_waiting:
    'Work kept in the store until Discord takes it, by kind: webhook events, votes to announce, reviews to post, feed posts to redraw.',
  work_parked:
    'Work Discord refuses until an admin fixes something, by kind: channels (all their posts wait), posts (a body refused as invalid).',
  process_heap_used_bytes: 'V8 heap in use.',
  uptime_seconds: 'Seconds since the bot process started.',
};
type Series = keyof typeof HELP;

/** What is read at scrape time rather than counted. */
export interface LiveState {
  ready: boolean;
  inFlight: number;
  /** Average heartbeat round trip in ms; negative or NaN while unknown. */
  gatewayPingMs: number;
  gatewayConnected: boolean;
}

/**
 * The bot's metrics, on a registry of their own (prom-client), with prom-client's process and
 * Node metrics (event-loop lag, GC, heap, resident memory) under the same prefix. The router, the
 * service client's attempt observer and the Discord REST observer feed it; /metrics renders it.
 * Labels hold handler names, routes and status codes: never user ids, tokens or anything secret.
 */
export class BotMetrics {
  private readonly registry = processRegistry();
  private readonly interactions = this.counter('interactions_total', ['handler', 'outcome']);
  private readonly failures = this.counter('interaction_failures_total', ['handler', 'reason']);
  private readonly duration = this.histogram('interaction_duration_seconds', DURATION_BUCKETS, ['handler']);
  private readonly ackLatency = this.histogram('interaction_first_response_seconds', ACK_BUCKETS);
  private readonly acks = this.counter('interaction_responses_total', ['type', 'result']);
  private readonly attempts = this.counter('service_attempts_total', ['route', 'result']);
  private readonly attemptDuration = this.histogram('service_attempt_duration_seconds', ATTEMPT_BUCKETS, ['route']);
  private readonly rateLimited = this.counter('service_rate_limited_total', ['outcome']);
  private readonly discordLimits = this.counter('discord_rate_limited_total', ['kind']);
  private readonly webhookRefusals = webhookRefusals(this.registry);
  private readonly inFlight = this.gauge('interactions_in_flight');
  private readonly ready = this.gauge('ready');
  private readonly gatewayConnected = this.gauge('gateway_connected');
  private readonly gatewayPing = this.gauge('gateway_ping_seconds');
  private readonly waiting = this.gauge('work_waiting', ['kind']);
  private readonly parked = this.gauge('work_parked', ['kind']);
  private readonly heapUsed = this.gauge('process_heap_used_bytes');
  private readonly uptime = this.gauge('uptime_seconds');
  private readonly pendingAcks = new Map<string, number>();

  constructor(private readonly clock: () => number = () => performance.now()) {}

  /** An interaction arrived: its first response is timed from here. */
  interactionReceived(interactionId: string): void {
    if (this.pendingAcks.size < MAX_PENDING_ACKS) this.pendingAcks.set(interactionId, this.clock());
  }

  /** Discord answered an interaction callback the bot sent. */
  interactionCallback(interactionId: string, callbackType: number | undefined, accepted: boolean): void {
    this.acks.inc({ type: CALLBACK_TYPES[callbackType ?? -1] ?? 'other', result: accepted ? 'accepted' : 'rejected' });
    const receivedAt = this.pendingAcks.get(interactionId);
    if (receivedAt === undefined) return;
    this.pendingAcks.delete(interactionId);
    if (accepted) this.ackLatency.observe((this.clock() - receivedAt) / 1000);
  }

  /** The router finished an interaction (the same facts as its log line). */
  interactionHandled(info: HandledInfo): void {
    this.pendingAcks.delete(info.interactionId);
    this.interactions.inc({ handler: info.handler, outcome: info.outcome });
    this.duration.observe({ handler: info.handler }, info.durationMs / 1000);
    if (info.outcome !== 'ok') this.failures.inc({ handler: info.handler, reason: info.reason ?? 'internal' });
  }

  /** One HTTP attempt to the service, as the API module reports it. */
  serviceAttempt(info: AttemptInfo): void {
    const result = info.error !== undefined ? errorLabel(info.error) : String(info.status ?? 'none');
    this.attempts.inc({ route: info.route, result });
    this.attemptDuration.observe({ route: info.route }, info.durationMs / 1000);
  }

  /** The client's rate limiter made a call wait, or failed it at once. */
  serviceRateLimited(event: RateLimitEvent): void {
    this.rateLimited.inc({ outcome: event.outcome });
  }

  /** discord.js waited before sending, or Discord answered 429 (core/discord-rate-limits.ts). */
  discordRateLimited(kind: RateLimitKind): void {
    this.discordLimits.inc({ kind });
  }

  /** The webhook receiver refused a request or connection (the log has them in aggregate). */
  webhookRefused(reason: string): void {
    this.webhookRefusals.inc({ reason });
  }

  /** The exposition text, with the live state read now. */
  async render(live: LiveState, work?: WorkCounts): Promise<string> {
    if (work) {
      for (const kind of ['events', 'votes', 'reviews', 'edits'] as const) this.waiting.set({ kind }, work[kind]);
      this.parked.set({ kind: 'channels' }, work.parkedLanes);
      this.parked.set({ kind: 'posts' }, work.parkedPosts);
    }
    this.inFlight.set(live.inFlight);
    this.ready.set(live.ready ? 1 : 0);
    this.gatewayConnected.set(live.gatewayConnected ? 1 : 0);
    if (Number.isFinite(live.gatewayPingMs) && live.gatewayPingMs >= 0) this.gatewayPing.set(live.gatewayPingMs / 1000);
    else this.gatewayPing.remove();
    this.heapUsed.set(process.memoryUsage().heapUsed);
    this.uptime.set(process.uptime());
    return this.registry.metrics();
  }

  private counter<L extends string>(name: Series, labelNames: readonly L[]): Counter<L> {
    return new Counter({ ...this.series(name), labelNames });
  }

  private histogram<L extends string = never>(name: Series, buckets: number[], labelNames: readonly L[] = []) {
    return new Histogram({ ...this.series(name), buckets, labelNames });
  }

  private gauge<L extends string = never>(name: Series, labelNames: readonly L[] = []): Gauge<L> {
    return new Gauge({ ...this.series(name), labelNames });
  }

  private series(name: Series) {
    return { name: `${PREFIX}${name}`, help: HELP[name], registers: [this.registry] };
  }
}

/** Transport error codes (ECONNRESET, timeout, …) are short words; anything else is lumped together. */
function errorLabel(detail: string): string {
  return /^[A-Za-z0-9_]{1,40}$/.test(detail) ? detail : 'network_error';
}
