import { label, type Scenario } from '../context.js';
import { drive, lateCount } from '../load.js';
import { mixedVotes } from '../members.js';
import { rssMb } from '../proc.js';
import { withBot } from './with-bot.js';

export const MEMORY_RUN = { count: 100_000, concurrency: 50, serviceLatencyMs: 20 } as const;

/**
 * RSS of the bot process after 10k and after 100k /vote (closed loop: 50 unanswered at a
 * time, as fast as the bot goes), mixed traffic: half from 1,000 returning voters, half from members
 * never seen before (50k distinct members in all).
 */
export const memoryScenario: Scenario = async (ctx, kind) => {
  ctx.sandbox.reset();
  ctx.sandbox.setFault('getVote', { latencyMs: MEMORY_RUN.serviceLatencyMs });
  const payload = mixedVotes(ctx.sandbox);
  return withBot(ctx, kind, 'memory', async (bot) => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const rss: Record<number, number> = { 0: rssMb(bot.pid) };
    ctx.progress(`memory ${label(kind)}: RSS before the run (1 s after ready) ${rss[0]!.toFixed(1)} MB`);
    const started = performance.now();
    const run = await drive(ctx.discord, bot, {
      ...MEMORY_RUN,
      payload,
      waitMs: 5_000,
      milestone: {
        everyCount: 1_000,
        run: (answered) => {
          bot.drainLogs();
          if (answered % 10_000 !== 0 || !bot.alive) return;
          rss[answered] = rssMb(bot.pid);
          const rate = (answered / (performance.now() - started)) * 1000;
          ctx.progress(
            `memory ${label(kind)}: RSS after ${answered / 1000}k ${rss[answered]!.toFixed(1)} MB (${rate.toFixed(0)}/s)`,
          );
        },
      },
    });
    const late = lateCount(run.samples);
    const rate = (MEMORY_RUN.count / run.wallMs) * 1000;
    ctx.note(
      `${label(kind)} memory run: ${MEMORY_RUN.count} /vote in ${(run.wallMs / 1000).toFixed(1)} s (${rate.toFixed(0)}/s), ${late} late; RSS MB by thousands answered: ${Object.entries(
        rss,
      )
        .map(([n, mb]) => `${Number(n) / 1000}k ${mb.toFixed(1)}`)
        .join(', ')}.`,
    );
    const at10k = rss[10_000] ?? Number.NaN;
    const at100k = rss[100_000] ?? Number.NaN;
    return { 'rss.10k': at10k, 'rss.100k': at100k, 'rss.growth': at100k - at10k };
  });
};
