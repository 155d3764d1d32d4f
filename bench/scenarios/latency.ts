import { nextSnowflake } from '../../test/support/discord/index.js';
import { label, type Figures, type Scenario } from '../context.js';
import { ackLatencies, drive, lateCount, percentiles } from '../load.js';
import { voteFrom } from '../members.js';
import { withBot } from './with-bot.js';

export const SERVICE_LATENCIES_MS = [20, 500, 2_500, 5_000] as const;
export const LATENCY_RUN = { count: 400, rate: 100 } as const;
const ANSWER_WAIT_MS = 12_000;

/**
 * /vote at a steady 100/s from members never seen before, so every one waits on the service,
 * which answers after `latencyMs`. A fresh bot per latency: no cache or circuit state carries over.
 * Each interaction is followed until the member sees an answer (up to 12 s): the vote, or an error.
 */
export const latencyScenario: Scenario = async (ctx, kind) => {
  const figures: Figures = {};
  for (const latencyMs of SERVICE_LATENCIES_MS) {
    ctx.sandbox.reset();
    ctx.sandbox.setFault('getVote', { latencyMs });
    const run = await withBot(ctx, kind, `latency, service ${latencyMs} ms`, (bot) =>
      drive(ctx.discord, bot, {
        ...LATENCY_RUN,
        payload: () => voteFrom(nextSnowflake()),
        waitMs: ANSWER_WAIT_MS,
        until: 'answer',
      }),
    );
    const [p50, p95, p99] = percentiles(ackLatencies(run.samples), [50, 95, 99]);
    const late = lateCount(run.samples);
    const refused = run.samples.filter((s) => s.refusedLate).length;
    const unanswered = run.samples.filter((s) => s.firstAttemptAt === undefined).length;
    const votes = run.samples.filter((s) => s.answer === 'expected').length;
    const errors = run.samples.filter((s) => s.answer === 'other').length;
    Object.assign(figures, {
      [`ack.p50.${latencyMs}`]: p50,
      [`ack.p95.${latencyMs}`]: p95,
      [`ack.p99.${latencyMs}`]: p99,
      [`late.${latencyMs}`]: late,
      [`answered.${latencyMs}`]: votes,
    });
    ctx.progress(
      `latency ${label(kind)} service ${latencyMs} ms: ack p50 ${p50!.toFixed(1)} p95 ${p95!.toFixed(1)} p99 ${p99!.toFixed(1)} ms; late ${late} (refused 10062: ${refused}, no callback: ${unanswered}); member saw the vote ${votes}, an error ${errors}; service requests ${ctx.sandbox.requestCount('getVote')}`,
    );
    if (refused + unanswered + errors > 0) {
      ctx.note(
        `${label(kind)}, service ${latencyMs} ms, of ${LATENCY_RUN.count}: ${refused} first callbacks refused with 10062 (past 3 s), ${unanswered} with no callback within ${ANSWER_WAIT_MS / 1000} s, ${errors} answered with an error message instead of the vote; ${ctx.sandbox.requestCount('getVote')} service requests.`,
      );
    }
  }
  return figures;
};
