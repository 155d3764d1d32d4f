import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from '../../../tools/bot-process.js';
import { EXIT_CONFIG } from '../../../src/core/exit-codes.js';
import { execForm, finalEnv, readDockerfile } from '../../support/dockerfile.js';
import {
  installPlaces,
  installWords,
  isProductionInstall,
  npmCommands,
  productionInstall,
} from '../../support/production-install.js';

const read = (file: string) => readFileSync(`${ROOT}${file}`, 'utf8');
const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
const startArgs = pkg.scripts.start!.split(/\s+/);
const dockerfile = readDockerfile();
const last = Math.max(...dockerfile.map((i) => i.stage));
const final = dockerfile.filter((i) => i.stage === last);

describe('the Dockerfile', () => {
  it('starts the bot with exactly the node command npm start runs, with node as the process', () => {
    expect(execForm(dockerfile, 'CMD')).toEqual(startArgs);
    expect(startArgs[0]).toBe('node');
  });

  it('builds in one stage and gives the image that runs only production dependencies, installed elsewhere', () => {
    expect(last).toBeGreaterThanOrEqual(2);
    const builder = dockerfile.filter((i) => i.stage === 0 && i.keyword === 'RUN').map((i) => i.args);
    expect(builder).toEqual(expect.arrayContaining([expect.stringMatching(/^npm ci\b/), 'npm run build']));
    // Production dependencies install on the full image, in case one ever needs compilers.
    const deps = dockerfile.filter((i) => i.stage === 1);
    expect(deps[0]?.args).not.toMatch(/slim/);
    expect(deps.filter((i) => i.keyword === 'RUN').map((i) => i.args)).toEqual([
      expect.stringMatching(/^npm ci --omit=dev\b/),
    ]);
    expect(
      final
        .filter((i) => i.keyword === 'RUN')
        .map((i) => i.args)
        .join('\n'),
    ).not.toMatch(/npm /);
    expect(final.some((i) => i.keyword === 'COPY' && /--from=deps \/app\/node_modules/.test(i.args))).toBe(true);
    expect(final.some((i) => i.keyword === 'COPY' && /--from=\S+ \/app\/dist/.test(i.args))).toBe(true);
  });

  it('installs without compiling better-sqlite3: the image runs Node 22+, whose node:sqlite the bot uses', () => {
    const installs = dockerfile.filter((i) => i.keyword === 'RUN' && /^npm ci\b/.test(i.args)).map((i) => i.args);
    expect(installs.length).toBeGreaterThanOrEqual(2);
    for (const install of installs) expect(install.split(/\s+/)).toContain('--ignore-scripts');
    for (const from of dockerfile.filter((i) => i.keyword === 'FROM'))
      expect(Number(/^node:(\d+)/.exec(from.args)?.[1])).toBeGreaterThanOrEqual(22);
    // --ignore-scripts skips only better-sqlite3's build while no other package the bot needs has an install script.
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, { dev?: boolean; optional?: boolean; hasInstallScript?: boolean }>;
    };
    const scripted = Object.entries(lock.packages).filter(([, p]) => p.hasInstallScript && !p.dev);
    expect(scripted.map(([name]) => name)).toEqual(['node_modules/better-sqlite3']);
    expect(lock.packages['node_modules/better-sqlite3']?.optional).toBe(true);
  });

  it('installs for production with the line docs/hosting.md gives, which keeps the canvas binary and the font', () => {
    const deps = dockerfile.filter((i) => i.stage === 1 && i.keyword === 'RUN').map((i) => i.args);
    expect(deps.map(installWords)).toEqual([installWords(productionInstall())]);
    for (const run of dockerfile.filter((i) => i.keyword === 'RUN')) expect(run.args).not.toMatch(/--omit=optional/);
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { version?: string }> };
    const canvas = lock.packages['node_modules/@napi-rs/canvas']?.version;
    expect(canvas).toBeDefined();
    // npm ci refuses a lockfile missing a platform package the registry lacks, so each one is in it.
    for (const platform of ['linux-x64-gnu', 'linux-arm64-gnu', 'darwin-arm64', 'win32-x64-msvc'])
      expect(lock.packages[`node_modules/@napi-rs/canvas-${platform}`]?.version).toBe(canvas);
    expect(final.some((i) => i.keyword === 'COPY' && /^assets \.\/assets$/.test(i.args))).toBe(true);
  });

  it('runs as a user other than root', () => {
    const user = final.filter((i) => i.keyword === 'USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
  });

  it('checks health on /healthz with node (no curl), on the port the image sets', () => {
    const check = execForm(dockerfile, 'HEALTHCHECK');
    expect(check[0]).toBe('node');
    expect(check.join(' ')).toMatch(/fetch\(`http:\/\/127\.0\.0\.1:\$\{process\.env\.HEALTH_PORT\}\/healthz`\)/);
    expect(check.join(' ')).not.toMatch(/curl|wget/);
    expect(finalEnv(dockerfile)).toMatchObject({
      METRICS_PORT: expect.stringMatching(/^\d+$/),
      METRICS_HOST: '0.0.0.0',
      HEALTH_PORT: expect.stringMatching(/^\d+$/),
    });
  });

  it('checks health on a port .env.example has no line for, so an env file copied from it cannot blank it', () => {
    const example = read('.env.example');
    expect(example).toMatch(/^METRICS_PORT=$/m);
    expect(example).not.toMatch(/^\s*HEALTH_PORT\s*=/m);
    expect(example).toMatch(/^# HEALTH_PORT /m);
  });

  it('keeps secrets and local state out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['.env', 'node_modules', 'dist', 'data', '.git']) expect(ignored).toContain(entry);
  });
});

describe('compose.yaml', () => {
  const compose = read('compose.yaml');
  it('gives the bot a volume for ./data and PostgreSQL only under the postgres profile', () => {
    expect(compose).toMatch(/^ {2}bot:\n(?: {4}.*\n|\n)*? {6}- bot-data:\/app\/data$/m);
    expect(compose).toMatch(/^ {2}postgres:\n {4}image: postgres:\S+\n {4}profiles: \[postgres(, scale)?\]$/m);
  });
});

describe('the systemd unit', () => {
  const unit = read('deploy/vote-review-bot.service');
  const execStart = /^ExecStart=(.*)$/m.exec(unit)?.[1];

  it('runs what docs/hosting.md says it runs, which is npm start’s node command', () => {
    // The page may continue the line with a backslash, as systemd reads it, to stay within its width.
    const documented = /^ExecStart=(.*)$/m.exec(read('docs/hosting.md').replace(/ \\\n\s*/g, ' '))?.[1];
    expect(documented).toBeDefined();
    expect(execStart).toBe(documented);
    const [node, ...args] = execStart!.split(/\s+/);
    expect(node).toMatch(/\/node$/);
    expect(['node', ...args]).toEqual(startArgs);
  });

  // systemd's own parser, where the machine has it: any line it cannot read is reported on stderr.
  // It also wants ExecStart's binary to exist, so the copy it reads points at this machine's node.
  const withSystemd = spawnSync('systemd-analyze', ['--version']).status === 0 ? it : it.skip;
  withSystemd('parses cleanly with systemd-analyze verify', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'unit-'));
    const copy = path.join(dir, 'vote-review-bot.service');
    writeFileSync(copy, unit.replace(/^ExecStart=\S+/m, `ExecStart=${process.execPath}`));
    try {
      const result = spawnSync('systemd-analyze', ['verify', copy], { encoding: 'utf8' });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('restarts the bot when it fails and stops it with SIGTERM', () => {
    expect(unit).toMatch(/^Restart=on-failure$/m);
    expect(unit).toMatch(/^KillSignal=SIGTERM$/m);
    expect(unit).toMatch(/^User=(?!root$)\S+$/m);
  });

  const setting = (name: string) => [...unit.matchAll(new RegExp(`^${name}=(.*)$`, 'gm'))].map((m) => m[1]);

  it('keeps restarting through a network outage of any length: no start limit gives up on a count', () => {
    // StartLimitIntervalSec=0 turns systemd's rate limit off (its default gives up after 5 starts in 10 s).
    expect(setting('StartLimitIntervalSec')).toEqual(['0']);
    expect(setting('StartLimitBurst')).toEqual([]);
    expect(setting('RestartSec')).toEqual([expect.stringMatching(/^[1-9]\d*s$/)]);
  });

  it('stops restarting only on a configuration error, which the bot exits with as 78', () => {
    expect(setting('RestartPreventExitStatus')).toEqual([String(EXIT_CONFIG)]);
    expect(EXIT_CONFIG).toBe(78);
    expect(setting('SuccessExitStatus')).toEqual([]);
  });

  withSystemd('is sandboxed: systemd-analyze security rates its exposure under 4.0', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'unit-'));
    const copy = path.join(dir, 'vote-review-bot.service');
    writeFileSync(copy, unit.replace(/^ExecStart=\S+/m, `ExecStart=${process.execPath}`));
    try {
      const result = spawnSync('systemd-analyze', ['security', '--offline=true', copy], { encoding: 'utf8' });
      const exposure = /Overall exposure level for \S+: (\d+\.\d+)/.exec(result.stdout)?.[1];
      expect(exposure).toBeDefined();
      expect(Number(exposure)).toBeLessThan(4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the CI workflow', () => {
  const workflow = read('.github/workflows/ci.yml');
  it('runs the README’s install and test commands on Node 20, 22 and 24, with PostgreSQL’s binaries on PATH', () => {
    const readmeTest = /^npm test\b/m.test(read('README.md'));
    expect(readmeTest).toBe(true);
    expect(workflow).toMatch(/^ {8}node: \[20, 22, 24\]$/m);
    expect(workflow).toMatch(/node-version: \$\{\{ matrix\.node \}\}/);
    const runs = [...workflow.matchAll(/^ {6}- run: (.*)$/gm)].map((m) => m[1]);
    expect(runs).toEqual(['npm ci --no-audit --no-fund', 'npm test']);
    expect(workflow).toMatch(/apt-get install .*postgresql/);
    expect(workflow).toMatch(/\/usr\/lib\/postgresql\/\*\/bin.*GITHUB_PATH/);
  });
});

describe('the Kubernetes StatefulSet', () => {
  it("ends its start script with npm start's node command", () => {
    const command = /exec (node [^\n"']*)/.exec(read('deploy/kubernetes/statefulset.yaml'))?.[1];
    expect(command?.trim().split(/\s+/)).toEqual(startArgs);
  });
});

describe('the production install', () => {
  it('is one line wherever it is given: the Dockerfile, the README, docs/ and deploy/', () => {
    const line = installWords(productionInstall());
    const others = installPlaces().flatMap((file) =>
      npmCommands(file)
        .filter(isProductionInstall)
        .filter((command) => installWords(command).join(' ') !== line.join(' '))
        .map((command) => `${file}: ${command}`),
    );
    expect(others).toEqual([]);
  });

  it('is never an npm command that leaves out optional packages (the canvas binary /stats draws with is one)', () => {
    const omitting = installPlaces().flatMap((file) =>
      npmCommands(file)
        .filter((command) => /--omit=optional|--no-optional/.test(command))
        .map((command) => `${file}: ${command}`),
    );
    expect(omitting).toEqual([]);
  });
});
