import { label, type Figures, type Scenario } from '../context.js';
import { ackLatencies, drive, lateCount, percentiles } from '../load.js';
import { mixedVotes } from '../members.js';
import { measureCpu, percentOfCore, type CpuShares } from '../proc.js';
import { withBot } from './with-bot.js';

// Up until each bot fails (the ratio needs both limits), 500/s apart from 2,000 to 5,000 where both
// bots top out, so the ratio is not an artefact of a coarse step. Past 3,000/s the harness's own
// share of the two cores starts to matter, which the CPU line of each step shows.
export const OFFERED_RATES = [
  100, 200, 400, 800, 1_200, 1_600, 2_000, 2_500, 3_000, 3_500, 4_000, 4_500, 5_000, 6_000, 8_000, 10_000,
] as const;
export const STEP_SECONDS = 3;
export const P99_LIMIT_MS = 1_000;
const SERVICE_LATENCY_MS = 20;

export interface Step {
  offered: number;
  achieved: number;
  p99: number;
  late: number;
  cpu: CpuShares;
}

/**
 * Steps the offered rate up (open loop: the stand-in sends on schedule whatever the bot does) for
 * STEP_SECONDS each, until p99 acknowledgement passes 1 s or an interaction is late. The service
 * answers in 20 ms; traffic is the mixed kind (half returning voters, half new members).
 */
export function throughputScenario(logLevel = 'info'): Scenario {
  return async (ctx, kind) => {
    ctx.sandbox.reset();
    ctx.sandbox.setFault('getVote', { latencyMs: SERVICE_LATENCY_MS });
    const payload = mixedVotes(ctx.sandbox);
    let offset = 0;
    const steps: Step[] = [];
    await withBot(
      ctx,
      kind,
      `throughput${logLevel === 'info' ? '' : ` (LOG_LEVEL=${logLevel})`}`,
      async (bot) => {
        for (const offered of OFFERED_RATES) {
          const count = offered * STEP_SECONDS;
          const cpu = measureCpu(bot.pid);
          const start = offset;
          const run = await drive(ctx.discord, bot, {
            count,
            rate: offered,
            payload: (i) => payload(start + i),
            waitMs: 5_000,
          });
          offset += count;
          bot.drainLogs();
          const acks = run.samples.flatMap((s) => (s.ackAt === undefined ? [] : [s.ackAt]));
          const firstSent = Math.min(...run.samples.map((s) => s.sentAt));
          const spanMs = Math.max(...acks) - firstSent;
          const [p99] = percentiles(ackLatencies(run.samples), [99]);
          const step: Step = {
            offered,
            achieved: acks.length > 0 ? (acks.length / spanMs) * 1000 : 0,
            p99: p99!,
            late: lateCount(run.samples),
            cpu: cpu(),
          };
          steps.push(step);
          ctx.progress(
            `throughput ${label(kind)}${logLevel === 'info' ? '' : ` (LOG_LEVEL=${logLevel})`} offered ${offered}/s: achieved ${step.achieved.toFixed(0)}/s, p99 ${step.p99.toFixed(1)} ms, late ${step.late}; ${cpuText(step.cpu)}`,
          );
          if (!passed(step) || !bot.alive) break;
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      },
      logLevel,
    );
    const best = steps.filter(passed).at(-1);
    const failed = steps.find((step) => !passed(step));
    const suffix = logLevel === 'info' ? '' : `.${logLevel}`;
    ctx.note(
      `${label(kind)} throughput${logLevel === 'info' ? '' : ` at LOG_LEVEL=${logLevel}`}: ${steps
        .map(
          (s) =>
            `${s.offered}/s → ${s.achieved.toFixed(0)}/s p99 ${s.p99.toFixed(0)} ms${s.late ? ` late ${s.late}` : ''} (${cpuText(s.cpu)})`,
        )
        .join('; ')}${failed ? '' : ' — every step passed: the limit lies above the highest rate offered'}.`,
    );
    const figures: Figures = {};
    figures[`throughput.offered${suffix}`] = best?.offered ?? 0;
    figures[`throughput.achieved${suffix}`] = best?.achieved ?? 0;
    return figures;
  };
}

const cpuText = (cpu: CpuShares) =>
  `CPU bot ${percentOfCore(cpu.bot)}, harness ${percentOfCore(cpu.harness)}, others ${percentOfCore(cpu.others)}`;

function passed(step: Step): boolean {
  return step.p99 < P99_LIMIT_MS && step.late === 0;
}
