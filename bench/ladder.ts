import type { InteractionPayload } from '../tools/discord-standin/index.js';
import type { BenchBot } from './bots.js';
import type { BenchContext } from './context.js';
import { ackLatencies, drive, lateCount, percentiles, type Send } from './load.js';
import { measureCpu, percentOfCore, type CpuShares } from './proc.js';

// Up until each bot fails (the ratio needs both limits), 500/s apart from 2,000 to 5,000 where both
// bots top out, so the ratio is not an artefact of a coarse step. Past 3,000/s the harness's own
// share of the two cores starts to matter, which the CPU line of each step shows.
export const OFFERED_RATES = [
  100, 200, 400, 800, 1_200, 1_600, 2_000, 2_500, 3_000, 3_500, 4_000, 4_500, 5_000, 6_000, 8_000, 10_000,
] as const;
export const STEP_SECONDS = 3;
export const P99_LIMIT_MS = 1_000;
/** How long an interaction of a step may go unanswered before it counts as such. */
const WAIT_MS = 5_000;
const PAUSE_MS = 500;

export interface Step {
  offered: number;
  achieved: number;
  p99: number;
  late: number;
  cpu: CpuShares;
}

export interface LadderOptions {
  /** What the progress lines call this ladder, e.g. "throughput our bot". */
  what: string;
  /** The `index`th interaction of the whole ladder (steps go on where the last one stopped). */
  payload: (index: number) => InteractionPayload;
  /** How each interaction reaches the bot; the gateway unless given. */
  send?: Send;
}

/**
 * Steps the offered rate up (open loop: the stand-in sends on schedule whatever the bot does) for
 * STEP_SECONDS each, until p99 acknowledgement passes 1 s, an interaction is late or the bot dies.
 */
export async function climbLadder(ctx: BenchContext, bot: BenchBot, options: LadderOptions): Promise<Step[]> {
  let offset = 0;
  const steps: Step[] = [];
  for (const offered of OFFERED_RATES) {
    const count = offered * STEP_SECONDS;
    const cpu = measureCpu(bot.pid);
    const start = offset;
    const run = await drive(ctx.discord, bot, {
      count,
      rate: offered,
      payload: (i) => options.payload(start + i),
      waitMs: WAIT_MS,
      ...(options.send ? { send: options.send } : {}),
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
      `${options.what} offered ${offered}/s: achieved ${step.achieved.toFixed(0)}/s, p99 ${step.p99.toFixed(1)} ms, late ${step.late}; ${cpuText(step.cpu)}`,
    );
    if (!passed(step) || !bot.alive) break;
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  }
  return steps;
}

export function passed(step: Step): boolean {
  return step.p99 < P99_LIMIT_MS && step.late === 0;
}

/** The highest step that held (p99 under 1 s, none late), if any did. */
export const bestStep = (steps: readonly Step[]): Step | undefined => steps.filter(passed).at(-1);

/** Every step on one line, for the notes under the table. */
export function ladderText(steps: readonly Step[]): string {
  const failed = steps.some((step) => !passed(step));
  return `${steps
    .map(
      (s) =>
        `${s.offered}/s → ${s.achieved.toFixed(0)}/s p99 ${s.p99.toFixed(0)} ms${s.late ? ` late ${s.late}` : ''} (${cpuText(s.cpu)})`,
    )
    .join('; ')}${failed ? '' : ' — every step passed: the limit lies above the highest rate offered'}`;
}

const cpuText = (cpu: CpuShares) =>
  `CPU bot ${percentOfCore(cpu.bot)}, harness ${percentOfCore(cpu.harness)}, others ${percentOfCore(cpu.others)}`;
