import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { readArgs } from '../src/core/cli-args.js';
import { startSandbox } from '../src/sandbox/server.js';
import { startDiscordStandIn } from '../tools/discord-standin/index.js';
import type { BenchContext } from './context.js';
import { feedDrills } from './drills/feed.js';
import { receiverDrillsScenario, receiverRows } from './drills/receiver.js';
import { DRILLS_SECTION, withDrillsSection } from './drills/results-section.js';
import { roleDrills } from './drills/roles.js';
import { shardsDrill } from './drills/shards.js';
import { suiteSizedDrills } from './drills/suites.js';
import type { Drill, DrillFigure } from './drills/types.js';
import { onlyNames } from './only-flag.js';

const WATCHDOG_MS = 25 * 60_000;
const notes: string[] = [];

/** The receiver drills need the bench's shared stand-in and sandbox: one of each for the run. */
const receiverDrills: Drill = {
  name: 'receiver',
  async run(progress) {
    const ctx: BenchContext = {
      discord: await startDiscordStandIn({ maxLog: 10_000 }),
      sandbox: await startSandbox({ maxLog: 1_000 }),
      progress,
      note: (line) => notes.push(line),
      cpuLog: () => undefined,
      othersPeak: 0,
    };
    try {
      return receiverRows(await receiverDrillsScenario(ctx, 'ours'));
    } finally {
      await Promise.all([ctx.discord.close(), ctx.sandbox.close()]);
    }
  },
};
const drills: Drill[] = [...feedDrills, receiverDrills, ...roleDrills, shardsDrill, ...suiteSizedDrills];
const USAGE = `Usage: npm run bench:drills [-- options]

Runs the fault drills at full size (the e2e suite runs them scaled down), each against the built bot
on the Discord stand-in and a webhook sender on loopback (npm run builds first), and writes their
figures into the drills section of bench/RESULTS.md.

Options:
  --only=NAME,...  run these drills only and leave RESULTS.md alone
  -h, --help       show this text (runs nothing, writes nothing)
`;
const args = readArgs(USAGE, { only: { type: 'string' } });
const only =
  args &&
  onlyNames(
    args.only,
    drills.map((d) => d.name),
    'drill',
    USAGE,
  );

async function main(): Promise<void> {
  setTimeout(() => {
    console.error(`drills: still running after ${WATCHDOG_MS / 60_000} min; giving up.`);
    process.exit(2);
  }, WATCHDOG_MS).unref();
  const started = performance.now();
  const figures: DrillFigure[] = [];
  for (const drill of drills) {
    if (only && !only.includes(drill.name)) continue;
    console.log(`[${((performance.now() - started) / 1000).toFixed(0)} s] ${drill.name}`);
    try {
      figures.push(...(await drill.run((line) => console.log(`  ${line}`))));
    } catch (error) {
      figures.push({
        drill: drill.name,
        figure: 'could not run',
        value: (error as Error).message.slice(0, 200),
        goal: '—',
        met: false,
      });
    }
  }
  const table = [
    '| drill | figure | value | goal | met |',
    '| --- | --- | ---: | --- | --- |',
    ...figures.map((f) => `| ${f.drill} | ${f.figure} | ${f.value} | ${f.goal} | ${f.met ? 'yes' : 'NO'} |`),
  ].join('\n');
  const section = `${DRILLS_SECTION}\n\nFrom \`npm run bench:drills\` on ${new Date().toISOString()} (load average ${loadavg()[0]!.toFixed(2)} at the end, ${((performance.now() - started) / 1000).toFixed(0)} s in all); each drill runs the built bot against the Discord stand-in and a webhook sender on loopback. The e2e suite runs the same drills scaled down.\n\n${table}\n${notes.map((n) => `\n- ${n}`).join('')}\n`;
  console.log(`\n${table}`);
  if (only) return;
  const file = new URL('../../bench/RESULTS.md', import.meta.url);
  writeFileSync(file, withDrillsSection(readFileSync(file, 'utf8'), section));
  console.log('written to bench/RESULTS.md');
}

if (args && only !== false)
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
