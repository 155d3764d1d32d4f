import { nextSnowflake } from '../../tools/discord-standin/index.js';
import { label, type Figures, type Scenario } from '../context.js';
import { drive, lateCount } from '../load.js';
import { voteFrom } from '../members.js';
import { withBot } from './with-bot.js';

export const RATE_LIMIT_RUN = { count: 500, rate: 25, limit: 10, windowMs: 5_000 } as const;

/**
 * The service in rate-limit mode (10 requests per 5 s window, headers on every answer, 429 when
 * closed): 500 /vote of distinct members over 20 s. The real service bans a guild for repeated
 * violations (requests sent while the window is closed), so that count is the figure.
 */
export const rateLimitScenario: Scenario = async (ctx, kind) => {
  ctx.sandbox.reset();
  const { limit, windowMs } = RATE_LIMIT_RUN;
  ctx.sandbox.setRateLimit({ limit, windowMs });
  try {
    return await withBot(ctx, kind, 'rate limit', async (bot): Promise<Figures> => {
      const run = await drive(ctx.discord, bot, {
        count: RATE_LIMIT_RUN.count,
        rate: RATE_LIMIT_RUN.rate,
        payload: () => voteFrom(nextSnowflake()),
        until: 'answer',
        waitMs: 20_000,
      });
      const violations = ctx.sandbox.violations;
      const late = lateCount(run.samples);
      const shown = run.samples.filter((s) => s.answer === 'expected').length;
      ctx.progress(
        `rate limit ${label(kind)}: ${violations} violations, ${shown} shown their vote, ${late} late, ${ctx.sandbox.requestCount('getVote')} requests`,
      );
      return { 'ratelimit.violations': violations, 'ratelimit.shown': shown, 'ratelimit.late': late };
    });
  } finally {
    ctx.sandbox.setRateLimit(null);
  }
};
