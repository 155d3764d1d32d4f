import { spawn } from 'node:child_process';
import { DRILL_FIGURE_PREFIX } from '../../tools/drill-figure.js';
import { ROOT } from '../../tools/bot-process.js';
import type { Drill, DrillFigure } from './types.js';

/**
 * Drills whose e2e test takes its size from the environment: run here at full size, as the suite runs
 * them scaled down. A drill is met when its test passes (the test holds the goals as assertions); the
 * figures are the lines it prints.
 */
interface SuiteDrill {
  name: string;
  title: string;
  file: string;
  /** Which tests of the file, by name. */
  only: string;
  env: Record<string, string>;
}

const suiteDrills: SuiteDrill[] = [
  {
    name: 'postgres-outage',
    title: 'PostgreSQL frozen for 20 s, then killed for 20 s',
    file: 'test/e2e/store-stall.test.ts',
    only: 'PostgreSQL',
    env: { STORE_OUTAGE_MS: '20000' },
  },
  {
    name: 'two-processes',
    title: "Two bots on one PostgreSQL, a 300-event burst and the first one's SIGTERM",
    file: 'test/e2e/one-process.test.ts',
    only: 'burst once',
    env: { ONE_PROCESS_EVENTS: '300' },
  },
  {
    name: 'reply-first',
    title: 'A reply delivered before its review',
    file: 'test/e2e/feed-faults.test.ts',
    only: 'reported the reply before the review',
    env: {},
  },
  {
    name: 'damaged-sqlite',
    title: 'A damaged SQLite file',
    file: 'test/e2e/store-start.test.ts',
    only: 'damaged SQLite',
    env: {},
  },
];

function runJest(drill: SuiteDrill): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', drill.file, '-t', drill.only, '--verbose=false'],
      { cwd: ROOT, env: { ...process.env, ...drill.env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

function asDrill(drill: SuiteDrill): Drill {
  return {
    name: drill.name,
    async run(progress) {
      progress(`${drill.name}: ${drill.file} -t "${drill.only}" ${JSON.stringify(drill.env)}`);
      const { code, output } = await runJest(drill);
      // Exit 0 with at least one test run: a name that matched nothing must not count as a pass.
      const passed = code === 0 && /Tests:\s+[1-9]\d* passed/.test(output);
      const figures: DrillFigure[] = output
        .split('\n')
        .filter((line) => line.startsWith(DRILL_FIGURE_PREFIX))
        .map((line) => {
          const [figure, value] = line.slice(DRILL_FIGURE_PREFIX.length).split(' = ');
          return { drill: drill.title, figure: figure ?? '', value: value ?? '', goal: 'asserted', met: passed };
        });
      const failure = passed ? '' : (/●[^\n]*\n[\s\S]{0,300}/.exec(output)?.[0] ?? output.slice(-300));
      return [
        {
          drill: drill.title,
          figure: 'its e2e test at full size',
          value: passed ? 'passed' : `failed: ${failure.replace(/\s+/g, ' ').slice(0, 200)}`,
          goal: 'passes',
          met: passed,
        },
        ...figures,
      ];
    },
  };
}

export const suiteSizedDrills: Drill[] = suiteDrills.map(asDrill);
