import { spawn } from 'node:child_process';
import type { Sandbox } from '../src/sandbox/types.js';
import { blankedConfig, ROOT, startCommand } from '../tools/bot-process.js';
import { member, slashCommand, type DiscordStandIn } from '../tools/discord-standin/index.js';
import { botEnvironment } from '../tools/world.js';

export type BotKind = 'ours' | 'baseline';
export type LogLine = Record<string, unknown>;

/** A bot process under test, whichever bot it is. */
export interface BenchBot {
  readonly kind: BotKind;
  readonly pid: number;
  readonly alive: boolean;
  /** Whether the harness asked the process to stop (terminate or stop): its exit is then no crash. */
  readonly stopAsked: boolean;
  /** JSON lines the bot printed since the last drain (the baseline prints none). */
  drainLogs(): LogLine[];
  /** JSON lines the bot printed before it counted as ready (kept apart: drainLogs starts after them). */
  startupLogs(): LogLine[];
  /** Stderr, last 64 KB: the baseline prints its errors there. */
  stderr(): string;
  onExit(listener: () => void): void;
  /** SIGTERM, so the bot shuts down as a host stops it (logging what it still counts); waits up to 15 s for the exit. */
  terminate(): Promise<void>;
  stop(): Promise<void>;
}

// Spawned as tools/bot-process.ts does (`npm start`'s command, cwd at the root, every
// .env.example variable blanked first), but keeping raw log lines only until a scenario reads them
// and bounded stderr, so 100k interactions cost the harness neither parsing nor memory.
const READY_TIMEOUT_MS = 20_000;
const TERMINATE_WAIT_MS = 15_000;
const KEPT_CHARS = 64 * 1024;

function startArgs(kind: BotKind): string[] {
  return kind === 'baseline' ? ['dist/bench/baseline/bot.js'] : startCommand().args;
}

/** The environment world.ts gives the bot in the end-to-end tests: same variable names for both bots. */
function environment(
  discord: DiscordStandIn,
  sandbox: Sandbox,
  logLevel: string,
  extra: Record<string, string>,
): Record<string, string> {
  return { ...botEnvironment(discord, sandbox), LOG_LEVEL: logLevel, ...extra };
}

/**
 * The guide's bot says `Ready!` on stdout. Ours logs `ready` at info only, so (at any LOG_LEVEL) it
 * counts as ready once it has identified on the gateway and answered a probe: a command it does not
 * know, which it refuses without calling the service.
 */
async function untilReady(
  kind: BotKind,
  discord: DiscordStandIn,
  sessionsBefore: number,
  stdout: () => string,
): Promise<void> {
  if (kind === 'baseline') {
    await discord.waitUntil(() => stdout().includes('Ready!'), READY_TIMEOUT_MS, 'the baseline to print Ready!');
    return;
  }
  await discord.waitUntil(
    () => discord.gatewaySessions > sessionsBefore,
    READY_TIMEOUT_MS,
    'our bot to identify on the gateway',
  );
  await discord
    .sendInteraction(slashCommand({ name: 'bench-probe', member: member() }))
    .firstCallback(READY_TIMEOUT_MS);
}

export async function startBenchBot(
  kind: BotKind,
  discord: DiscordStandIn,
  sandbox: Sandbox,
  logLevel = 'info',
  extraEnv: Record<string, string> = {},
): Promise<BenchBot> {
  const sessionsBefore = discord.gatewaySessions;
  const child = spawn(process.execPath, startArgs(kind), {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      // For profiling the bot under load (e.g. BENCH_NODE_OPTIONS='--import ./profile.mjs'); unset normally.
      ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
      ...(kind === 'baseline' ? withoutDiscordJsOwn(blankedConfig()) : blankedConfig()),
      ...environment(discord, sandbox, logLevel, extraEnv),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let alive = true;
  let stopAsked = false;
  let stderr = '';
  let stdoutTail = '';
  let pending = '';
  // Raw lines only: parsing waits for drainLogs, so the harness spends nothing on logs nobody reads.
  let lines: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => (alive = false));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-KEPT_CHARS);
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    if (kind === 'baseline') stdoutTail = (stdoutTail + chunk).slice(-KEPT_CHARS);
    const parts = (pending + chunk).split('\n');
    pending = parts.pop() ?? '';
    for (const line of parts) lines.push(line);
  });
  const kill = async () => {
    if (alive) child.kill('SIGKILL');
    await exited;
  };

  try {
    await Promise.race([
      untilReady(kind, discord, sessionsBefore, () => stdoutTail),
      exited.then(() => Promise.reject(new Error('it exited'))),
    ]);
  } catch (error) {
    await kill();
    throw new Error(
      `the ${kind === 'ours' ? 'bot' : 'baseline'} did not get ready (${(error as Error).message.slice(0, 200)}); stderr: ${stderr.slice(-2000)}`,
      { cause: error },
    );
  }
  const startup = lines;
  lines = [];
  const parsed = (raw: string[]) =>
    raw.flatMap((line) => {
      try {
        return [JSON.parse(line) as LogLine];
      } catch {
        return [];
      }
    });

  return {
    kind,
    pid: child.pid!,
    get alive() {
      return alive;
    },
    get stopAsked() {
      return stopAsked;
    },
    drainLogs() {
      const taken = lines;
      lines = [];
      return parsed(taken);
    },
    startupLogs: () => parsed(startup),
    stderr: () => stderr,
    onExit: (listener) => void exited.then(listener),
    async terminate() {
      stopAsked = true;
      if (alive) child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, TERMINATE_WAIT_MS)))]);
      clearTimeout(timer);
    },
    async stop() {
      stopAsked = true;
      // A profiled bot (BENCH_NODE_OPTIONS) must exit by itself to write its profile.
      if (alive) child.kill(process.env.BENCH_NODE_OPTIONS ? 'SIGTERM' : 'SIGKILL');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * discord.js reads SHARD_COUNT and SHARDS from the environment itself (its ShardingManager's
 * variables): blanked, they stop a plain client (the baseline) at construction. Our bot hides them.
 */
function withoutDiscordJsOwn(env: Record<string, string>): Record<string, string> {
  const { SHARD_COUNT: _count, SHARDS: _shards, ...rest } = env;
  return rest;
}
