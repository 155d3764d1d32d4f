import { label, type Figures, type Scenario } from '../context.js';
import { bestStep, climbLadder, ladderText, type Step } from '../ladder.js';
import { mixedVotes } from '../members.js';
import { withBot } from './with-bot.js';

const SERVICE_LATENCY_MS = 20;

/**
 * The offered-rate ladder (bench/ladder.ts) over the gateway, until p99 acknowledgement passes 1 s
 * or an interaction is late. The service answers in 20 ms; traffic is the mixed kind (half
 * returning voters, half new members).
 */
export function throughputScenario(logLevel = 'info'): Scenario {
  return async (ctx, kind) => {
    ctx.sandbox.reset();
    ctx.sandbox.setFault('getVote', { latencyMs: SERVICE_LATENCY_MS });
    const payload = mixedVotes(ctx.sandbox);
    const atLevel = logLevel === 'info' ? '' : ` (LOG_LEVEL=${logLevel})`;
    let steps: Step[] = [];
    await withBot(
      ctx,
      kind,
      `throughput${atLevel}`,
      async (bot) => {
        steps = await climbLadder(ctx, bot, { what: `throughput ${label(kind)}${atLevel}`, payload });
      },
      logLevel,
    );
    const best = bestStep(steps);
    const suffix = logLevel === 'info' ? '' : `.${logLevel}`;
    ctx.note(
      `${label(kind)} throughput${logLevel === 'info' ? '' : ` at LOG_LEVEL=${logLevel}`}: ${ladderText(steps)}.`,
    );
    const figures: Figures = {};
    figures[`throughput.offered${suffix}`] = best?.offered ?? 0;
    figures[`throughput.achieved${suffix}`] = best?.achieved ?? 0;
    return figures;
  };
}
