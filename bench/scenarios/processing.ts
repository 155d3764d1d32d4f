import { label, type Figures, type Scenario } from '../context.js';
import { ackLatencies, drive, percentiles } from '../load.js';
import { voteFrom, voters } from '../members.js';
import { cpuMs } from '../proc.js';
import { withBot } from './with-bot.js';

export const PROCESSING_RUN = { members: 200, count: 1_500, rate: 200 } as const;

/**
 * The bot's own time per interaction. The service answers at once (no fault), and every member has
 * checked once before the measurement, so our bot answers from its cache: the service wait is zero
 * (checked: the sandbox must see no request while measuring). Its logged `ms` (whole ms, covering the
 * handler and the reply callback's round trip to the stand-in) is then processing time. The baseline
 * has no cache and no timing log; for both, CPU time per interaction is read from /proc.
 */
export const processingScenario: Scenario = async (ctx, kind) => {
  ctx.sandbox.reset();
  const members = voters(ctx.sandbox, PROCESSING_RUN.members);
  const payload = (i: number) => voteFrom(members[i % members.length]!);
  return withBot(ctx, kind, 'processing', async (bot) => {
    await drive(ctx.discord, bot, { count: members.length, rate: PROCESSING_RUN.rate, payload, waitMs: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    bot.drainLogs();
    const requestsBefore = ctx.sandbox.requestCount('getVote');
    const cpuBefore = cpuMs(bot.pid);
    const run = await drive(ctx.discord, bot, {
      count: PROCESSING_RUN.count,
      rate: PROCESSING_RUN.rate,
      payload,
      waitMs: 5_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const cpuPerInteraction = (cpuMs(bot.pid) - cpuBefore) / PROCESSING_RUN.count;
    const serviceRequests = ctx.sandbox.requestCount('getVote') - requestsBefore;
    const ids = new Set(run.samples.map((s) => s.id));
    const logged = bot
      .drainLogs()
      .filter((line) => line.msg === 'interaction handled' && ids.has(String(line.interactionId)))
      .map((line) => Number(line.ms));
    const [ackP50, ackP99] = percentiles(ackLatencies(run.samples), [50, 99]);
    const [msP50, msP99] = percentiles(logged, [50, 99]);
    const figures: Figures = {
      'processing.cpu': cpuPerInteraction,
      'processing.ackP50': ackP50!,
      'processing.ackP99': ackP99!,
      'processing.requests': serviceRequests,
    };
    if (kind === 'ours') Object.assign(figures, { 'processing.p50': msP50!, 'processing.p99': msP99! });
    ctx.progress(
      `processing ${label(kind)}: ${kind === 'ours' ? `logged ms p50 ${msP50} p99 ${msP99} (${logged.length} lines); ` : ''}CPU ${cpuPerInteraction.toFixed(3)} ms/interaction; ack p50 ${ackP50!.toFixed(2)} p99 ${ackP99!.toFixed(2)} ms; service requests while measuring ${serviceRequests}`,
    );
    if (kind === 'ours' && logged.length !== PROCESSING_RUN.count)
      ctx.note(`our bot logged ${logged.length} of ${PROCESSING_RUN.count} measured interactions.`);
    return figures;
  });
};
