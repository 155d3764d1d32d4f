import { createHash } from 'node:crypto';

/** Discord's documented per-channel message limit: 5 messages per 5 s (create and edit, each its own bucket). */
export const CHANNEL_MESSAGE_LIMIT = { limit: 5, windowMs: 5_000 };

/**
 * Member role changes share one bucket per guild. Discord does not document the figure; the
 * stand-in uses 10 per second so a burst of role changes meets 429s that discord.js must queue.
 */
export const MEMBER_ROLE_LIMIT = { limit: 10, windowMs: 1_000 };

export interface RateLimitVerdict {
  allowed: boolean;
  headers: Record<string, string>;
  /** On a refusal: Discord's 429 body. */
  body?: { message: string; retry_after: number; global: boolean };
}

/**
 * Per-route buckets the way Discord keys them: method, route and major parameter (the channel).
 * Fixed windows starting at a bucket's first request; every answer carries the bucket headers so
 * a client can pace itself, and a request over the limit gets 429 with `retry_after`.
 */
export class RouteRateLimits {
  readonly #windows = new Map<string, { resetAt: number; used: number }>();

  constructor(private readonly settings = CHANNEL_MESSAGE_LIMIT) {}

  take(bucketKey: string, now: number): RateLimitVerdict {
    let window = this.#windows.get(bucketKey);
    if (!window || window.resetAt <= now) {
      window = { resetAt: now + this.settings.windowMs, used: 0 };
      this.#windows.set(bucketKey, window);
    }
    const resetAfter = Math.max(0, (window.resetAt - now) / 1000);
    const headers: Record<string, string> = {
      'x-ratelimit-limit': String(this.settings.limit),
      'x-ratelimit-reset': (window.resetAt / 1000).toFixed(3),
      'x-ratelimit-reset-after': resetAfter.toFixed(3),
      'x-ratelimit-bucket': createHash('sha1').update(bucketKey.split(' ')[0]!).digest('hex').slice(0, 16),
    };
    if (window.used >= this.settings.limit) {
      return {
        allowed: false,
        headers: {
          ...headers,
          'x-ratelimit-remaining': '0',
          'x-ratelimit-scope': 'user',
          'retry-after': String(Math.ceil(resetAfter)),
        },
        body: { message: 'You are being rate limited.', retry_after: Number(resetAfter.toFixed(3)), global: false },
      };
    }
    window.used += 1;
    return {
      allowed: true,
      headers: { ...headers, 'x-ratelimit-remaining': String(this.settings.limit - window.used) },
    };
  }
}

/** The bucket of a channel-message request, or undefined for routes the stand-in does not limit. */
export function channelMessageBucket(method: string, segments: readonly string[]): string | undefined {
  if (segments[0] !== 'channels' || segments[2] !== 'messages') return undefined;
  if (method === 'POST' && segments.length === 3) return `POST/messages ${segments[1]}`;
  if (method === 'PATCH' && segments.length === 4) return `PATCH/messages ${segments[1]}`;
  return undefined;
}

/** The bucket of a member role change (PUT/DELETE /guilds/{g}/members/{u}/roles/{r}): one per guild. */
export function memberRoleBucket(method: string, segments: readonly string[]): string | undefined {
  if (method !== 'PUT' && method !== 'DELETE') return undefined;
  if (segments.length !== 6 || segments[0] !== 'guilds' || segments[2] !== 'members' || segments[4] !== 'roles')
    return undefined;
  return `ROLE/members ${segments[1]}`;
}

/** Discord's global limit: 50 requests per second per bot, over every process of it. */
export const GLOBAL_REQUESTS_PER_SECOND = 50;

/**
 * The bot's global budget, over every request carrying its token (interaction callbacks and
 * interaction webhooks are exempt, as on Discord). Discord documents "50 requests per second" and
 * not how the second is counted; its rate limits have been leaky buckets since 2022
 * (discord-api-docs#7680), so this is one: a request every 1/50 s, bursts of 50. Past it a request
 * gets 429 with `global: true`; the refusals and the requests read in each second are kept, so a
 * test or the bench can assert the bot (all its processes together) stayed inside.
 *
 * Discord counts a request when it arrives; the stand-in when its event loop reads it, on a
 * machine it shares with the bot it judges. A request read `stalledMs` after the loop was last
 * free (a collection, a starved core) may have arrived at any moment of that stall: it is taken at
 * the earliest moment the bucket had room, and refused only when no moment of the stall had.
 */
export class GlobalRateLimit {
  refused = 0;
  /** Requests read in each second (unix second → count), the last 3,600 seconds kept. */
  readonly perSecond = new Map<number, number>();
  /** When the bucket is next empty: each request taken pushes it one interval later. */
  #emptyAt = Number.NEGATIVE_INFINITY;
  readonly #intervalMs: number;
  /** How far past now the bucket may be filled: a burst of `limit` requests. */
  readonly #burstMs: number;

  constructor(limit = GLOBAL_REQUESTS_PER_SECOND) {
    this.#intervalMs = 1000 / limit;
    this.#burstMs = (limit - 1) * this.#intervalMs;
  }

  take(now: number, stalledMs = 0): RateLimitVerdict {
    const second = Math.floor(now / 1000);
    this.perSecond.set(second, (this.perSecond.get(second) ?? 0) + 1);
    if (this.perSecond.size > 3_600) this.perSecond.delete(this.perSecond.keys().next().value!);
    const arrival = Math.max(now - stalledMs, this.#emptyAt - this.#burstMs);
    if (arrival <= now) {
      this.#emptyAt = Math.max(this.#emptyAt, arrival) + this.#intervalMs;
      return { allowed: true, headers: {} };
    }
    this.refused += 1;
    const retryAfter = (arrival - now) / 1000;
    return {
      allowed: false,
      headers: {
        'x-ratelimit-global': 'true',
        'x-ratelimit-scope': 'global',
        'retry-after': String(Math.max(1, Math.ceil(retryAfter))),
      },
      body: { message: 'You are being rate limited.', retry_after: Number(retryAfter.toFixed(3)), global: true },
    };
  }

  /** The most requests counted in any one second so far. */
  get busiestSecond(): number {
    return Math.max(0, ...this.perSecond.values());
  }
}

/** Whether a request counts against the bot's global limit: it carries the bot token and is not an interaction's. */
export function countsGlobally(authorization: string | undefined, segments: readonly string[]): boolean {
  if (!authorization?.startsWith('Bot ')) return false;
  return segments[0] !== 'interactions' && segments[0] !== 'webhooks';
}
