import { readFileSync } from 'node:fs';
import { member, nextSnowflake, slashCommand } from '../../tools/discord-standin/index.js';
import { label, type Figures, type Scenario } from '../context.js';
import { ackLatencies, drive, lateCount, percentiles } from '../load.js';
import { voteFrom } from '../members.js';
import { withBot } from './with-bot.js';

const MB = 1024 * 1024;
export const BIG_BODIES_RUN = { others: 200 } as const;

/** Peak resident memory of a process so far (VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const kb = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb === undefined ? Number.NaN : Number(kb) / 1024;
}

/**
 * A service that sends too much: a 50 MB markdown-heavy review, an endless vote list and a 10 MB
 * review, asked for while 200 other members send /vote at once. Our bot only (the baseline has
 * neither /review nor /votes).
 */
export const bigBodiesScenario: Scenario = async (ctx, kind) => {
  ctx.sandbox.reset();
  const [huge, large] = [nextSnowflake(), nextSnowflake()];
  const review = (authorId: string, content: string) => ({
    id: `rev_${authorId.slice(-8)}`,
    rating: 3,
    content,
    likes: 0,
    replies: 0,
    created_at: '2025-01-01T00:00:00.000Z',
    authorId,
  });
  ctx.sandbox.setReview(review(huge, '**_~~`||'.repeat((50 * MB) / 9)));
  ctx.sandbox.setReview(review(large, '*'.repeat(10 * MB)));
  ctx.sandbox.setFault('listVotes', { endless: true });
  try {
    return await withBot(ctx, kind, 'big bodies', async (bot): Promise<Figures> => {
      const heavy = [
        slashCommand({ name: 'review', member: member(), options: [{ name: 'member', type: 6, value: huge }] }),
        slashCommand({ name: 'votes', member: member() }),
        slashCommand({ name: 'review', member: member(), options: [{ name: 'member', type: 6, value: large }] }),
      ].map((payload) => ctx.discord.sendInteraction(payload));
      const run = await drive(ctx.discord, bot, {
        count: BIG_BODIES_RUN.others,
        rate: Infinity,
        payload: () => voteFrom(nextSnowflake()),
        until: 'answer',
        waitMs: 15_000,
      });
      await Promise.all(heavy.map((handle) => handle.waitForResponse(15_000).catch(() => undefined)));
      const [p50, p99] = percentiles(ackLatencies(run.samples), [50, 99]);
      const max = Math.max(...ackLatencies(run.samples));
      const figures = {
        'bodies.othersP50': p50!,
        'bodies.othersP99': p99!,
        'bodies.othersMax': max,
        'bodies.late': lateCount(run.samples),
        'bodies.rssPeak': bot.alive ? peakRssMb(bot.pid) : Number.NaN,
        'bodies.alive': bot.alive ? 1 : 0,
      };
      ctx.progress(
        `big bodies ${label(kind)}: others' first answer p50 ${p50!.toFixed(0)} ms, p99 ${p99!.toFixed(0)} ms, max ${max.toFixed(0)} ms; ${figures['bodies.late']} late; peak RSS ${figures['bodies.rssPeak'].toFixed(1)} MB; ${bot.alive ? 'alive' : 'DEAD'}`,
      );
      return figures;
    });
  } finally {
    ctx.sandbox.clearFaults();
    ctx.sandbox.reset();
  }
};
