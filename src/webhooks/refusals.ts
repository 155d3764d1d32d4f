import type { Logger } from '../core/log.js';
import { REFUSAL_LOG_INTERVAL_MS } from '../config/webhook-limits.js';

export type RefusalReason = keyof typeof REASONS;

/** What each refusal means to an operator, and what to do if the refused sender is Guilds. */
const REASONS = {
  token: {
    level: 'warn',
    hint: 'the Authorization header is not WEBHOOK_TOKEN: set the same token on the Guilds webhook page',
  },
  not_found: {
    level: 'warn',
    hint: 'a path other than WEBHOOK_PATH: the URL on the Guilds webhook page must end in it',
  },
  method: { level: 'warn', hint: 'a method other than POST' },
  bad_signature: {
    level: 'warn',
    hint: "a list's delivery whose signature does not match its secret: paste the list's secret again with /setup listing add",
  },
  stale_timestamp: {
    level: 'warn',
    hint: "a signed list delivery more than 5 minutes old or ahead: check this machine's clock (NTP), or a replay",
  },
  missing_secret: {
    level: 'warn',
    hint: "a list's delivery without its secret: set the secret /setup listing add showed on the list's webhook page",
  },
  wrong_secret: {
    level: 'warn',
    hint: "a list's delivery with another secret: set the one /setup listing add showed (or LISTING_<SITE>_SECRET)",
  },
  too_large: { level: 'warn', hint: "a body over 64 KiB; Guilds' events are far smaller" },
  malformed: { level: 'warn', hint: 'a body that is not a JSON object' },
  ignored_event: { level: 'warn', hint: 'an event the bot does not act on; answered 200 so Guilds does not resend it' },
  other_guild: {
    level: 'warn',
    hint: 'an event for another server, answered 200: DISCORD_GUILD_ID must be the server whose webhook page points here',
  },
  timeout: { level: 'warn', hint: 'a connection that sent no complete request in time; closed' },
  bad_request: { level: 'warn', hint: 'a request that is not valid HTTP; closed' },
  connection_cap: {
    level: 'warn',
    hint: 'the receiver holds WEBHOOK_MAX_CONNECTIONS connections and closed new ones at once: raise it if these are deliveries from Guilds',
  },
  store_unavailable: {
    level: 'error',
    hint: 'the store did not take a delivery in time or failed; answered 503, which Guilds retries',
  },
} as const;

export interface RefusalLogOptions {
  intervalMs?: number;
  /** Each refusal as it happens, e.g. for a metric. */
  onRefused?: (reason: RefusalReason) => void;
}

/**
 * Counts what the receiver refuses and logs it by reason, never once per request, so a stranger
 * hammering the port cannot fill the disk. The first refusal of a reason after a quiet interval is
 * logged at once with its detail, so an operator setting things up sees "wrong token" on their first
 * try; later ones are counted into one line per reason per interval, and at close. That is at most
 * two lines per reason per interval however many requests come.
 */
export class RefusalLog {
  readonly #uncounted = new Map<RefusalReason, number>();
  #seenNow = new Set<RefusalReason>();
  #seenBefore = new Set<RefusalReason>();
  #since = Date.now();
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly logger: Logger,
    private readonly options: RefusalLogOptions = {},
  ) {
    this.#timer = setInterval(() => this.flush(), options.intervalMs ?? REFUSAL_LOG_INTERVAL_MS);
    this.#timer.unref();
  }

  refuse(reason: RefusalReason, detail: Record<string, unknown> = {}): void {
    this.options.onRefused?.(reason);
    const quiet = !this.#seenNow.has(reason) && !this.#seenBefore.has(reason);
    this.#seenNow.add(reason);
    if (!quiet) {
      this.#uncounted.set(reason, (this.#uncounted.get(reason) ?? 0) + 1);
      return;
    }
    const { level, hint } = REASONS[reason];
    this.logger[level](
      { reason, ...detail, hint, more: 'further ones are counted and logged once per interval' },
      'webhook delivery refused',
    );
  }

  /** One line per reason with refusals not logged yet; starts a new interval. */
  flush(): void {
    const now = Date.now();
    const seconds = Math.round((now - this.#since) / 1000);
    for (const [reason, count] of this.#uncounted) {
      const { level, hint } = REASONS[reason];
      this.logger[level]({ reason, count, seconds, hint }, 'webhook deliveries refused');
    }
    this.#uncounted.clear();
    this.#seenBefore = this.#seenNow;
    this.#seenNow = new Set();
    this.#since = now;
  }

  close(): void {
    clearInterval(this.#timer);
    this.flush();
  }
}
