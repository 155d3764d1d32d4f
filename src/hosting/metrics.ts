import type { AttemptInfo } from '../api/index.js';
import type { HandledInfo } from '../bot/router.js';
import { Counter, gauge, Histogram, render, type MetricFamily } from './prometheus.js';

const PREFIX = 'vote_review_bot_';

/** Handling time: most answers come from the cache or a fast service; deferred ones take seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** First response: Discord's window is 3 s, the bot defers at 1.8 s; fine steps around both. */
const ACK_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 2.5, 3, 5];
const ATTEMPT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** Interaction callback types as Discord numbers them, named for the label. */
const CALLBACK_TYPES: Readonly<Record<number, string>> = {
  4: 'reply',
  5: 'deferred_reply',
  6: 'deferred_update',
  7: 'update',
  9: 'modal',
};

/** Interactions waiting for their first response; past this many, new ones go unmeasured. */
const MAX_PENDING_ACKS = 10_000;

/** What is read at scrape time rather than counted. */
export interface LiveState {
  ready: boolean;
  inFlight: number;
  /** Average heartbeat round trip in ms; negative or NaN while unknown. */
  gatewayPingMs: number;
  gatewayConnected: boolean;
}

/**
 * The bot's metrics. The router, the service client's attempt observer and the Discord REST
 * observer feed it; /metrics renders it. Labels hold handler names, routes and status codes:
 * never user ids, tokens or anything secret.
 */
export class BotMetrics {
  private readonly interactions = new Counter(
    `${PREFIX}interactions_total`,
    'Interactions handled, by handler and outcome (ok, refused, error).',
    ['handler', 'outcome'],
  );
  private readonly failures = new Counter(
    `${PREFIX}interaction_failures_total`,
    'Interactions that ended in a message about a failure, by handler and cause (circuit_open counts calls refused by the open circuit breaker).',
    ['handler', 'reason'],
  );
  private readonly duration = new Histogram(
    `${PREFIX}interaction_duration_seconds`,
    'Time from receiving an interaction to the end of its handling, by handler.',
    DURATION_BUCKETS,
    ['handler'],
  );
  private readonly ackLatency = new Histogram(
    `${PREFIX}interaction_first_response_seconds`,
    "Time from receiving an interaction to Discord's answer to its first response (reply, deferral or modal); Discord allows 3 s.",
    ACK_BUCKETS,
  );
  private readonly acks = new Counter(
    `${PREFIX}interaction_responses_total`,
    'Interaction callbacks sent to Discord, by type and whether Discord accepted them.',
    ['type', 'result'],
  );
  private readonly attempts = new Counter(
    `${PREFIX}service_attempts_total`,
    'HTTP attempts to the votes and reviews service, by route and result (the status code, or the transport error).',
    ['route', 'result'],
  );
  private readonly attemptDuration = new Histogram(
    `${PREFIX}service_attempt_duration_seconds`,
    'Duration of HTTP attempts to the votes and reviews service, by route.',
    ATTEMPT_BUCKETS,
    ['route'],
  );
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
    if (accepted) this.ackLatency.observe({}, (this.clock() - receivedAt) / 1000);
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

  /** The exposition text: counters and histograms, then what is read now. */
  render(live: LiveState): string {
    const memory = process.memoryUsage();
    const families: MetricFamily[] = [
      this.interactions.collect(),
      this.failures.collect(),
      this.duration.collect(),
      this.ackLatency.collect(),
      this.acks.collect(),
      this.attempts.collect(),
      this.attemptDuration.collect(),
      gauge(`${PREFIX}interactions_in_flight`, 'Interactions being handled now.', live.inFlight),
      gauge(`${PREFIX}ready`, '1 once the Discord client is ready, 0 before and during shutdown.', live.ready ? 1 : 0),
      gauge(
        `${PREFIX}gateway_connected`,
        '1 while the gateway connection is up and ready, 0 while it reconnects or resumes.',
        live.gatewayConnected ? 1 : 0,
      ),
      gauge(
        `${PREFIX}gateway_ping_seconds`,
        'Average gateway heartbeat round trip (absent until the first heartbeat is acknowledged).',
        Number.isFinite(live.gatewayPingMs) && live.gatewayPingMs >= 0 ? live.gatewayPingMs / 1000 : undefined,
      ),
      gauge(`${PREFIX}process_resident_memory_bytes`, 'Resident set size of the bot process.', memory.rss),
      gauge(`${PREFIX}process_heap_used_bytes`, 'V8 heap in use.', memory.heapUsed),
      gauge(`${PREFIX}uptime_seconds`, 'Seconds since the bot process started.', process.uptime()),
    ];
    return render(families);
  }
}

/** Transport error codes (ECONNRESET, timeout, …) are short words; anything else is lumped together. */
function errorLabel(detail: string): string {
  return /^[A-Za-z0-9_]{1,40}$/.test(detail) ? detail : 'network_error';
}
