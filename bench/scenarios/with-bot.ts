import { startBenchBot, type BenchBot, type BotKind } from '../bots.js';
import { label, type BenchContext } from '../context.js';
import { measureCpu, percentOfCore } from '../proc.js';

/**
 * Runs `work` against a freshly started bot (cold cache, fresh process) and always stops it. Records
 * the CPU the bot, the harness and every other process on the machine used meanwhile.
 */
export async function withBot<T>(
  ctx: BenchContext,
  kind: BotKind,
  what: string,
  work: (bot: BenchBot) => Promise<T>,
  logLevel = 'info',
  extraEnv: Record<string, string> = {},
): Promise<T> {
  const bot = await startBenchBot(kind, ctx.discord, ctx.sandbox, logLevel, extraEnv);
  // A stop the harness asked for (a drill's SIGTERM) is no death.
  let crashed = false;
  bot.onExit(() => (crashed = !bot.stopAsked));
  const cpu = measureCpu(bot.pid);
  try {
    return await work(bot);
  } finally {
    const shares = cpu();
    ctx.othersPeak = Math.max(ctx.othersPeak, shares.others);
    ctx.cpuLog(
      `${what}, ${label(kind)}: bot ${percentOfCore(shares.bot)}, harness ${percentOfCore(shares.harness)}, other processes ${percentOfCore(shares.others)}`,
    );
    if (crashed)
      ctx.note(
        `${kind === 'ours' ? 'Our bot' : 'The baseline'} process died during "${what}": ${crashSummary(bot.stderr())}`,
      );
    await bot.stop();
  }
}

/** The error that ended a Node process, from its stderr, e.g. "unhandled 'error' event on Client: DiscordAPIError[10062]: …". */
function crashSummary(stderr: string): string {
  const lines = stderr.split('\n').map((line) => line.trim());
  const banner = Math.max(
    0,
    lines.findLastIndex((line) => line.startsWith('throw ') || line.includes('Uncaught')),
  );
  const error = lines.slice(banner).find((line) => /^\w*Error(\[\w+\])?:/.test(line)) ?? '(no error on stderr)';
  const emitter = /Emitted 'error' event on (\w+)/.exec(stderr)?.[1];
  return `${emitter ? `unhandled 'error' event on ${emitter}: ` : ''}${error.slice(0, 200)}`;
}
