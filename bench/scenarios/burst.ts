import { nextSnowflake } from '../../tools/discord-standin/index.js';
import { label, type Figures, type Scenario } from '../context.js';
import { drive, lateCount } from '../load.js';
import { voteFrom } from '../members.js';
import { withBot } from './with-bot.js';

export const BURST = { count: 500, serviceLatencyMs: 500 } as const;

/**
 * 500 /vote sent at once, first all from one member, then from 500 different members. The service
 * answers in 500 ms, so the whole burst reaches the bot while the first request is still in flight.
 */
export const burstScenario: Scenario = async (ctx, kind) =>
  withBot(ctx, kind, 'bursts', async (bot) => {
    const figures: Figures = {};
    const one = nextSnowflake();
    const bursts = [
      { id: 'requests.oneMember', what: 'one member', payload: () => voteFrom(one) },
      { id: 'requests.manyMembers', what: 'different members', payload: () => voteFrom(nextSnowflake()) },
    ];
    for (const burst of bursts) {
      ctx.sandbox.reset();
      ctx.sandbox.setFault('getVote', { latencyMs: BURST.serviceLatencyMs });
      const run = await drive(ctx.discord, bot, {
        count: BURST.count,
        rate: Infinity,
        payload: burst.payload,
        waitMs: 8_000,
      });
      const requests = ctx.sandbox.requestCount('getVote');
      figures[burst.id] = requests;
      const late = lateCount(run.samples);
      ctx.progress(
        `burst ${label(kind)} ${BURST.count} × ${burst.what}: ${requests} service requests; ${late} late acknowledgements`,
      );
      if (late > 0)
        ctx.note(`${label(kind)}, burst of ${BURST.count} /vote from ${burst.what}: ${late} late acknowledgements.`);
    }
    return figures;
  });
