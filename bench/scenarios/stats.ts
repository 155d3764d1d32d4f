import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Scenario } from '../context.js';
import { percentiles } from '../load.js';

/**
 * `warm`: by then the allocator and Skia's caches have grown to their size; growth after it would be a leak.
 * `burst`: pictures asked for at once after those; RSS is read again `burstLaterMs` after them, once the
 * drawing thread, idle 60 s, has ended.
 */
export const STATS_RENDER = { count: 1_000, warm: 200, burst: 50, burstLaterMs: 65_000 } as const;

interface RenderRun {
  loadMs: number;
  rssBeforeMb: number;
  rssAfterFirstMb: number;
  rssWarmMb: number;
  rssAfterMb: number;
  times: number[];
  burst: { beforeMb: number; peakMb: number; afterMb: number; laterMb: number };
}

/**
 * The /stats picture (30 days, the five languages in turn) drawn STATS_RENDER.count times in a
 * process of its own: time per picture (chart.js drawing + PNG encoding), what the first one costs
 * (loading chart.js, the canvas binary and the font), and whether memory creeps.
 */
export const statsScenario: Scenario = async (ctx) => {
  const child = fileURLToPath(new URL('../stats-render.js', import.meta.url));
  ctx.progress(`stats: ${STATS_RENDER.count} renders, then ${STATS_RENDER.burst} at once`);
  const { stdout } = await promisify(execFile)(process.execPath, [child], { timeout: 5 * 60_000 });
  const run = JSON.parse(stdout.trim().split('\n').at(-1)!) as RenderRun;
  const [p50, p99] = percentiles(run.times, [50, 99]);
  ctx.note(
    `/stats picture: first render ${run.loadMs.toFixed(0)} ms with loading; RSS ${run.rssBeforeMb.toFixed(0)} MB before it, ${run.rssAfterFirstMb.toFixed(0)} MB after, ${run.rssAfterMb.toFixed(0)} MB after ${STATS_RENDER.count} more.`,
  );
  const { burst } = run;
  ctx.note(
    `/stats burst of ${STATS_RENDER.burst} at once: RSS ${burst.beforeMb.toFixed(0)} MB before, ${burst.peakMb.toFixed(0)} MB at most, ${burst.afterMb.toFixed(0)} MB right after, ${burst.laterMb.toFixed(0)} MB ${STATS_RENDER.burstLaterMs / 1000} s later.`,
  );
  return {
    'stats.p50': p50!,
    'stats.p99': p99!,
    'stats.first': run.loadMs,
    'stats.rssLoad': run.rssAfterFirstMb - run.rssBeforeMb,
    'stats.rssGrowth': run.rssAfterMb - run.rssAfterFirstMb,
    'stats.rssCreep': run.rssAfterMb - run.rssWarmMb,
    'stats.burstBefore': burst.beforeMb,
    'stats.burstPeak': burst.peakMb,
    'stats.burstAfter': burst.afterMb,
    'stats.burstLater': burst.laterMb,
  };
};
