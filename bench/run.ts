import { writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { startSandbox } from '../src/sandbox/server.js';
import { startDiscordStandIn } from '../tools/discord-standin/index.js';
import type { BotKind } from './bots.js';
import { label, type BenchContext, type Figures, type Scenario } from './context.js';
import { bigBodiesScenario } from './scenarios/big-bodies.js';
import { burstScenario } from './scenarios/burst.js';
import { latencyScenario } from './scenarios/latency.js';
import { listsScenario } from './scenarios/lists.js';
import { forwardingScenario } from './scenarios/forwarding.js';
import { memoryScenario } from './scenarios/memory.js';
import { manyServersScenario } from './scenarios/many-servers.js';
import { processingScenario } from './scenarios/processing.js';
import { rateLimitScenario } from './scenarios/rate-limit.js';
import { realtimeScenario } from './scenarios/realtime.js';
import { scaleScenario } from './scenarios/scale.js';
import { statsScenario } from './scenarios/stats.js';
import { throughputScenario } from './scenarios/throughput.js';
import { voteOverHttpScenario } from './scenarios/vote-over-http.js';
import { voteApiScenario } from './scenarios/vote-api.js';
import { withKeptSections } from './drills/results-section.js';
import { renderTable, ratioTargets, targets } from './table.js';
import { EXIT_USAGE, readArgs } from '../src/core/cli-args.js';
import { onlyNames } from './only-flag.js';

const WATCHDOG_MS = 16 * 60_000;
/** A scale run with --servers seeds, starts and polls many more servers than the default 10,000. */
const SCALE_WATCHDOG_MS = 45 * 60_000;
/** Other people's work on the machine above this (in cores, averaged over a bot run) spoils a run: it is run once more. */
const BUSY_MACHINE_CORES = 0.25;
/** No second runs after this, so the whole bench stays under 10 minutes. */
const RERUN_UNTIL_MS = 6 * 60_000;
const USAGE = `Usage: npm run bench [-- options]

Runs every scenario against our bot and the discord.js guide's bot on the Discord stand-in and the
service sandbox (about 10 minutes; npm run builds first) and writes the figures to bench/RESULTS.md.

Options:
  --only=NAME,...  run these scenarios only and leave RESULTS.md alone (for work on the bench)
  --no-warn        skip the extra throughput run of our bot at LOG_LEVEL=warn
  --servers=N      with --only=scale: N servers instead of 10,000 (1,000 to 1,000,000), in
                   2 processes of N ÷ 2,500 shards each, max_concurrency 16 (e.g. --servers=50000)
  -h, --help       show this text (runs nothing, writes nothing)
`;
const args = readArgs(USAGE, {
  only: { type: 'string' },
  'no-warn': { type: 'boolean' },
  servers: { type: 'string' },
});
const withWarn = !args?.['no-warn'];

const scenarios: Array<{ name: string; run: Scenario; kinds: BotKind[] }> = [
  { name: 'processing', run: processingScenario, kinds: ['ours', 'baseline'] },
  { name: 'latency', run: latencyScenario, kinds: ['ours', 'baseline'] },
  { name: 'burst', run: burstScenario, kinds: ['ours', 'baseline'] },
  { name: 'throughput', run: throughputScenario(), kinds: ['ours', 'baseline'] },
  ...(withWarn ? [{ name: 'throughput-warn', run: throughputScenario('warn'), kinds: ['ours' as const] }] : []),
  { name: 'vote-http', run: voteOverHttpScenario, kinds: ['ours'] },
  { name: 'memory', run: memoryScenario, kinds: ['ours', 'baseline'] },
  { name: 'many-servers', run: manyServersScenario, kinds: ['ours'] },
  { name: 'rate-limit', run: rateLimitScenario, kinds: ['ours', 'baseline'] },
  { name: 'big-bodies', run: bigBodiesScenario, kinds: ['ours'] },
  { name: 'realtime', run: realtimeScenario, kinds: ['ours', 'baseline'] },
  { name: 'lists', run: listsScenario, kinds: ['ours'] },
  { name: 'forwarding', run: forwardingScenario, kinds: ['ours'] },
  { name: 'vote-api', run: voteApiScenario, kinds: ['ours'] },
  { name: 'stats', run: statsScenario, kinds: ['ours'] },
  { name: 'scale', run: scaleScenario, kinds: ['ours'] },
];
const only =
  args &&
  onlyNames(
    args.only,
    scenarios.map((s) => s.name),
    'scenario',
    USAGE,
  );

const scaleServers = args && only !== false ? serversArg(args.servers, only) : undefined;

/** --servers: a whole number in range, and only beside --only=scale (the default run keeps its 10,000). */
function serversArg(given: string | undefined, names: string[] | undefined): number | undefined | false {
  if (given === undefined) return undefined;
  const servers = /^\d+$/.test(given) ? Number(given) : Number.NaN;
  const problem =
    names?.length !== 1 || names[0] !== 'scale'
      ? '--servers goes with --only=scale'
      : !(servers >= 1_000 && servers <= 1_000_000)
        ? '--servers must be a whole number from 1000 to 1000000'
        : undefined;
  if (problem === undefined) return servers;
  process.stderr.write(`${problem}.\n\n${USAGE}`);
  process.exitCode = EXIT_USAGE;
  return false;
}

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s`;

function machine(): string {
  const cpu = cpus();
  return `${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory, Node ${process.version}, Linux ${release()}`;
}

function load(): string {
  return `load average ${loadavg()[0]!.toFixed(2)}`;
}

async function main(): Promise<void> {
  const watchdogMs = scaleServers ? SCALE_WATCHDOG_MS : WATCHDOG_MS;
  setTimeout(() => {
    console.error(`bench: still running after ${watchdogMs / 60_000} min; giving up.`);
    process.exit(2);
  }, watchdogMs).unref();

  const notes: string[] = [];
  const cpuLines: string[] = [];
  // A scenario's notes and CPU lines are kept only if its figures are.
  let runNotes: string[] = [];
  let runCpuLines: string[] = [];
  const ctx: BenchContext = {
    discord: await startDiscordStandIn({ maxLog: 10_000 }),
    sandbox: await startSandbox({ maxLog: 1_000 }),
    progress: (line) => console.log(`[${elapsed()}] ${line}`),
    note: (line) => runNotes.push(line),
    cpuLog: (line) => runCpuLines.push(line),
    othersPeak: 0,
    ...(scaleServers ? { scaleServers } : {}),
  };
  const figures: Record<BotKind, Figures> = { ours: {}, baseline: {} };
  const loadAtStart = load();
  console.log(`bench: ${machine()}; ${loadAtStart}`);

  for (const scenario of scenarios) {
    if (only && !only.includes(scenario.name)) continue;
    for (const kind of scenario.kinds) {
      for (let attempt = 1; ; attempt++) {
        ctx.othersPeak = 0;
        runNotes = [];
        runCpuLines = [];
        try {
          Object.assign(figures[kind], await scenario.run(ctx, kind));
        } catch (error) {
          ctx.progress(`${scenario.name} ${label(kind)} FAILED: ${(error as Error).message}`);
          runNotes.push(`${scenario.name} (${label(kind)}) could not run: ${(error as Error).message.slice(0, 300)}`);
        }
        const busy = ctx.othersPeak > BUSY_MACHINE_CORES;
        const again = busy && attempt === 1 && performance.now() - started < RERUN_UNTIL_MS;
        if (busy) {
          const what = `other processes on the machine used ${(ctx.othersPeak * 100).toFixed(0)}% of a core during ${scenario.name} (${label(kind)})`;
          ctx.progress(`${what}${again ? ': running it again' : ''}`);
          notes.push(
            again
              ? `${what}; it was run again and its figures are from the second run.`
              : `${what}: its figures are disturbed.`,
          );
        }
        if (again) continue;
        notes.push(...runNotes);
        cpuLines.push(...runCpuLines);
        break;
      }
    }
  }
  await Promise.all([ctx.discord.close(), ctx.sandbox.close()]);
  notes.push(
    `Machine ${loadAtStart} at the start, ${load()} at the end (the bench itself accounts for about 1.5); other processes' CPU per run is listed below.`,
  );

  const extra = withWarn ? ['warn'] : [];
  const table = renderTable(figures.ours, figures.baseline, extra);
  const goals = [...targets(figures.ours), ...ratioTargets(figures.ours, figures.baseline)].map(
    (t) => `- ${t.met ? 'MET' : 'NOT MET'}: ${t.text} — ${t.figure}`,
  );
  const total = `${((performance.now() - started) / 1000).toFixed(0)} s`;
  console.log(`\n${table}\n\nTargets (our bot):\n${goals.join('\n')}\n\nbench finished in ${total}`);
  if (only) return;
  const file = new URL('../../bench/RESULTS.md', import.meta.url);
  writeFileSync(file, withKeptSections(results(table, goals, notes, cpuLines, total, extra), file));
  console.log('written to bench/RESULTS.md');
}

function results(
  table: string,
  goals: string[],
  notes: string[],
  cpuLines: string[],
  total: string,
  extra: string[],
): string {
  const command = `npm run bench${extra.length ? '' : ' -- --no-warn'}`;
  return `# Benchmark results

- Date: ${new Date().toISOString()}
- Machine: ${machine()}
- Command: \`${command}\` (build, then \`node dist/bench/run.js\`); the bench itself took ${total}
- Setup: each bot is a real child process (ours started as \`npm start\` does, the baseline as
  \`node dist/bench/baseline/bot.js\`) logged into the local Discord stand-in, calling the service sandbox,
  both on 127.0.0.1. Stand-in, sandbox and load generator share the bench process; the bot under test
  has its own. Our bot logs at LOG_LEVEL=info (one line per interaction, as a host runs it)${extra.length ? '; one extra throughput run at LOG_LEVEL=warn' : ''}.
  The baseline (\`bench/baseline/bot.ts\`) is the discord.js guide's bot: plain fetch per /vote, no cache,
  no deferral, no retry, default REST options. Each scenario starts a fresh bot process.
- Latency runs begin 1 s after the bot is ready, when its RSS is read ("RSS at start" is the median over those
  processes). At a 20 ms service three fresh processes per bot are run and their 1,200 acks pooled: over 400 the
  p99 is the 4th slowest ack, which one scheduling hiccup on this machine moves by milliseconds for either bot.
- Ack latency = interaction dispatched on the gateway → the bot's first callback reaching the stand-in
  (accepted or refused), both stamped by the stand-in. The stand-in keeps Discord's 3 s deadline on
  (\`interactionDeadlineMs\` default): a later callback is refused with 10062 and counted late.
  "unanswered" means no callback at all within the wait (the baseline's process had died). Ratio = ours ÷ baseline.
  /vote over HTTP rows: the stand-in's signed POST to the bot's Interactions Endpoint URL → its response (the inline
  callback), against the gateway in the same kind of process (\`npm start\` with INTERACTIONS_PORT).
- /setup status rows: in the 1,000-server bot, once idle, from a member with Manage Server in a server set up with
  credentials, all four channels and a voter role, the service sandbox at its normal speed; dispatched → the deferral
  and dispatched → the edit of the original message that shows the status lines, both stamped by the stand-in.

${table}

## Targets (our bot)
${goals.join('\n')}

## Notes
${notes.map((n) => `- ${n}`).join('\n')}

## CPU during each run (share of one core; the machine has ${cpus().length})
${cpuLines.map((n) => `- ${n}`).join('\n')}
`;
}

// Exits explicitly: a bot process or socket left behind by a failed scenario must not keep the bench alive.
if (args && only !== false && scaleServers !== false)
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
