import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { startDiscordStandIn, type DiscordStandIn } from '../../tools/discord-standin/index.js';
import { runBuilt, runScript, type ScriptRun } from '../support/run-script.js';
import { botEnvironment } from '../../tools/world.js';
import { ROOT } from '../../tools/bot-process.js';

// Every script the operator runs, with the usage line it prints. The sandbox's, the demo's, the
// playground's and the bench's npm scripts build first, so their built files are run directly.
/** A bench that ignored --help would run for minutes (and write RESULTS.md at the end): stopped long before. */
const BENCH_KILLED_AFTER_MS = 15_000;
const RESULTS = `${ROOT}bench/RESULTS.md`;
const SCRIPTS: Array<{
  name: string;
  usage: string;
  run: (env: Record<string, string>, args: string[]) => Promise<ScriptRun>;
}> = [
  { name: 'start', usage: 'Usage: npm start', run: (env, args) => runScript('start', env, args) },
  {
    name: 'deploy-commands',
    usage: 'Usage: npm run deploy-commands',
    run: (env, args) => runScript('deploy-commands', env, args),
  },
  { name: 'doctor', usage: 'Usage: npm run doctor', run: (env, args) => runScript('doctor', env, args) },
  {
    name: 'rotate-secrets',
    usage: 'Usage: npm run rotate-secrets',
    run: (env, args) => runScript('rotate-secrets', env, args),
  },
  { name: 'receiver', usage: 'Usage: npm run receiver', run: (env, args) => runScript('receiver', env, args) },
  {
    name: 'interactions',
    usage: 'Usage: npm run interactions',
    run: (env, args) => runScript('interactions', env, args),
  },
  { name: 'rest-proxy', usage: 'Usage: npm run rest-proxy', run: (env, args) => runScript('rest-proxy', env, args) },
  {
    name: 'sandbox',
    usage: 'Usage: npm run sandbox',
    run: (env, args) => runBuilt('dist/src/processes/sandbox.js', env, args),
  },
  {
    name: 'demo',
    usage: 'Usage: npm run demo',
    run: (env, args) => runBuilt('dist/tools/demo/demo.js', env, args),
  },
  {
    name: 'playground',
    usage: 'Usage: npm run playground',
    run: (env, args) => runBuilt('dist/tools/playground/cli.js', env, args),
  },
  {
    name: 'bench',
    usage: 'Usage: npm run bench',
    run: (env, args) => runBuilt('dist/bench/run.js', env, args, BENCH_KILLED_AFTER_MS),
  },
  {
    name: 'bench:drills',
    usage: 'Usage: npm run bench:drills',
    run: (env, args) => runBuilt('dist/bench/drills.js', env, args, BENCH_KILLED_AFTER_MS),
  },
];

describe('the scripts on the command line', () => {
  let discord: DiscordStandIn;
  let sandbox: Sandbox;
  let dir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    [discord, sandbox] = await Promise.all([startDiscordStandIn(), startSandbox()]);
    dir = mkdtempSync(path.join(tmpdir(), 'bot-script-flags-'));
    // Everything a script would need to do its work, so a --help that does it anyway shows: a
    // request to the stand-in or the sandbox, or a store file in `dir`.
    env = {
      ...botEnvironment(discord, sandbox),
      DATABASE_URL: `file:${path.join(dir, 'bot.sqlite')}`,
      SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
      SANDBOX_PORT: '0',
    };
  });
  afterAll(async () => {
    await Promise.all([discord?.close(), sandbox?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(SCRIPTS)('$name --help prints its usage, exits 0 and does nothing else', async ({ usage, run }) => {
    const [discordBefore, sandboxBefore] = [discord.requests.length, sandbox.requests.length];
    const results = readFileSync(RESULTS, 'utf8');
    for (const flag of ['--help', '-h']) {
      const shown = await run(env, [flag]);
      expect(shown.code).toBe(0);
      expect(shown.stdout.startsWith(usage)).toBe(true);
      expect(shown.stdout).toMatch(/-h, --help/);
      expect(shown.stderr).toBe('');
    }
    expect(discord.requests.length).toBe(discordBefore);
    expect(sandbox.requests.length).toBe(sandboxBefore);
    expect(readdirSync(dir)).toEqual([]);
    expect(readFileSync(RESULTS, 'utf8')).toBe(results);
  });

  it.each(SCRIPTS)(
    '$name refuses an unknown flag or a stray argument with its usage and exit 2',
    async ({ usage, run }) => {
      const discordBefore = discord.requests.length;
      const wrong = await run(env, ['--no-such-flag']);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain("Unknown option '--no-such-flag'");
      expect(wrong.stderr).toContain(usage);
      expect(wrong.stdout).toBe('');
      const stray = await run(env, ['now']);
      expect(stray.code).toBe(2);
      expect(stray.stderr).toContain(usage);
      expect(discord.requests.length).toBe(discordBefore);
      expect(readdirSync(dir)).toEqual([]);
    },
  );

  it.each(SCRIPTS.filter((s) => s.name.startsWith('bench')))(
    '$name refuses an --only name it does not know, naming the ones it knows, with exit 2',
    async ({ name, usage, run }) => {
      const wrong = await run(env, ['--only=no-such-scenario']);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain('no-such-scenario');
      expect(wrong.stderr).toContain(name === 'bench' ? 'latency' : 'flood');
      expect(wrong.stderr).toContain(usage);
    },
  );

  it('bench refuses --servers without --only=scale, or out of range, with exit 2 and runs nothing', async () => {
    const bench = SCRIPTS.find((s) => s.name === 'bench')!;
    const discordBefore = discord.requests.length;
    const results = readFileSync(RESULTS, 'utf8');
    for (const [args, problem] of [
      [['--servers=50000'], '--servers goes with --only=scale'],
      [['--only=scale,stats', '--servers=50000'], '--servers goes with --only=scale'],
      [['--only=scale', '--servers=12k'], '--servers must be a whole number from 1000 to 1000000'],
      [['--only=scale', '--servers=999'], '--servers must be a whole number from 1000 to 1000000'],
    ] as const) {
      const wrong = await bench.run(env, [...args]);
      expect({ args, code: wrong.code, stderr: wrong.stderr.split('\n')[0] }).toEqual({
        args,
        code: 2,
        stderr: `${problem}.`,
      });
      expect(wrong.stderr).toContain(bench.usage);
    }
    expect(discord.requests.length).toBe(discordBefore);
    expect(readFileSync(RESULTS, 'utf8')).toBe(results);
  });
});
