import type { REST } from '@discordjs/rest';
import type { Logger } from './log.js';
import { TallyLog } from './tally-log.js';

export type RateLimitKind = 'paced' | 'refused';

export interface RateLimitWatch {
  /** Writes the pacing counted since the last line. */
  close(): void;
}

/**
 * Discord's rate limits in the log, the one way the bot and the REST proxy both watch them.
 * @discordjs/rest says `rateLimited` only for its own wait before sending, when its count of a
 * bucket (or of the global budget) says no: routine under load, one event per waiting request,
 * Discord never asked for it. Those are counted into one info line a minute. A 429 is Discord
 * refusing a request that was sent, which only the `response` event shows: each one is a warning.
 */
export function watchRateLimits(
  rest: Pick<REST, 'on'>,
  logger: Logger,
  onEvent?: (kind: RateLimitKind) => void,
): RateLimitWatch {
  const pacing = new TallyLog<'global' | 'route'>(logger, { level: 'info', msg: 'discord pacing: requests waited' });
  rest.on('rateLimited', (info) => {
    onEvent?.('paced');
    pacing.count(info.global ? 'global' : 'route', `${info.method.toUpperCase()} ${info.route} ${info.retryAfter} ms`);
  });
  rest.on('response', (request, response) => {
    if (response.status !== 429) return;
    onEvent?.('refused');
    const retryAfter = Number(response.headers.get('retry-after'));
    logger.warn(
      {
        method: request.method.toUpperCase(),
        route: request.route,
        global: response.headers.has('x-ratelimit-global'),
        scope: response.headers.get('x-ratelimit-scope') ?? undefined,
        retryAfterMs: Number.isFinite(retryAfter) ? Math.round(retryAfter * 1000) : undefined,
      },
      'discord rate limit: Discord answered 429',
    );
  });
  return { close: () => pacing.close() };
}
