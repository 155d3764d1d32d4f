import { describe, expect, it } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { blankedConfig, envFileFromExample, ROOT } from '../../tools/bot-process.js';
import { closedPort } from '../../tools/closed-port.js';
import { startDiscordStandIn } from '../../tools/discord-standin/index.js';
import { execForm, finalEnv, readDockerfile } from '../support/dockerfile.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { botEnvironment } from '../../tools/world.js';

/** A node argv from the Dockerfile, run with this machine's node (the image's is `node` on PATH). */
const withThisNode = ([command, ...args]: string[]) => {
  expect(command).toBe('node');
  return { command: process.execPath, args };
};

describe('the bot started as the image starts it', () => {
  it('reports healthy through the image’s HEALTHCHECK, then exits 0 on SIGTERM', async () => {
    const dockerfile = readDockerfile();
    const [discord, sandbox] = await Promise.all([startDiscordStandIn(), startSandbox()]);
    const env = {
      PATH: process.env.PATH ?? '',
      ...blankedConfig(),
      ...finalEnv(dockerfile),
      // The image's ports, moved to free ones so parallel test runs do not collide.
      METRICS_PORT: String(await closedPort()),
      HEALTH_PORT: String(await closedPort()),
      ...botEnvironment(discord, sandbox),
    };
    const { command, args } = withThisNode(execForm(dockerfile, 'CMD'));
    const bot = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      bot.once('close', (code, signal) => resolve({ code, signal })),
    );
    try {
      let output = '';
      bot.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      await discord.waitUntil(() => /"msg":"ready"/.test(output), 15_000, 'the ready log line');

      const check = withThisNode(execForm(dockerfile, 'HEALTHCHECK'));
      const health = spawnSync(check.command, check.args, { env, timeout: 5_000 });
      expect(health.status).toBe(0);

      bot.kill('SIGTERM');
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(output).toMatch(/"msg":"stopped"/);

      // With the bot gone, the same check reports unhealthy.
      expect(spawnSync(check.command, check.args, { env, timeout: 5_000 }).status).toBe(1);
    } finally {
      bot.kill('SIGKILL');
      await Promise.all([discord.close(), sandbox.close()]);
    }
  });
});

describe('the image run with `docker run --env-file .env`, .env copied from .env.example', () => {
  it('reports healthy through the HEALTHCHECK though the empty METRICS_PORT= line turns metrics off', async () => {
    const dockerfile = readDockerfile();
    const [discord, sandbox] = await Promise.all([startDiscordStandIn(), startSandbox()]);
    const image = finalEnv(dockerfile);
    // The image's health port, moved to a free one so parallel test runs do not collide.
    expect(image.HEALTH_PORT).toMatch(/^\d+$/);
    const imageEnv = { ...image, HEALTH_PORT: String(await closedPort()) };
    // --env-file sets every line it has, empty ones included, over the image's ENV; the operator
    // filled in only the required settings (and, here, where Discord and the service are).
    const envFile = { ...envFileFromExample(), ...botEnvironment(discord, sandbox) };
    expect(envFile.METRICS_PORT).toBe('');
    const env = { PATH: process.env.PATH ?? '', ...imageEnv, ...envFile };
    const { command, args } = withThisNode(execForm(dockerfile, 'CMD'));
    const bot = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let output = '';
      bot.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      await discord.waitUntil(() => /"msg":"ready"/.test(output), 15_000, 'the ready log line');
      expect(output).not.toMatch(/health and metrics server listening/);

      const check = withThisNode(execForm(dockerfile, 'HEALTHCHECK'));
      const health = spawnSync(check.command, check.args, { env, timeout: 5_000 });
      expect(health.status).toBe(0);
    } finally {
      bot.kill('SIGKILL');
      await Promise.all([discord.close(), sandbox.close()]);
    }
  });
});
