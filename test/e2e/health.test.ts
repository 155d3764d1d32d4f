import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { startBot } from '../../tools/bot-process.js';
import { closedPort } from '../../tools/closed-port.js';
import { member, slashCommand, startDiscordStandIn } from '../../tools/discord-standin/index.js';
import { startWorld, type World } from '../../tools/world.js';
import { parsePrometheusText } from '../support/prometheus-text.js';
import { CRITIC, VOTER } from '../../tools/seed.js';

describe('with METRICS_PORT set', () => {
  let world: World;
  let base: string;
  let port: number;
  beforeAll(async () => {
    port = await closedPort();
    base = `http://127.0.0.1:${port}`;
    world = await startWorld({ env: { METRICS_PORT: String(port) } });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('logs the address it serves on, and listens there only', () => {
    const line = world.bot.logs.find((l) => l.msg === 'health and metrics server listening');
    expect(line).toMatchObject({ url: base, paths: ['/healthz', '/metrics'] });
    if (process.platform === 'linux') expect(listeningPorts(world.bot.child.pid!)).toEqual([port]);
  });

  it('answers /healthz with 200 and ready once the client is ready', async () => {
    const response = await fetch(`${base}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', ready: true, gatewayConnected: true });
  });

  it('counts a /vote in /metrics, with the service attempt by route', async () => {
    const before = await scrape(base);
    const handle = world.discord.sendInteraction(
      slashCommand({ name: 'vote', member: member(), options: [{ name: 'member', type: 6, value: VOTER }] }),
    );
    await handle.waitForMessage();
    await world.bot.waitForLog((l) => l.msg === 'interaction handled' && l.interactionId === handle.id);
    const after = await scrape(base);

    const handled = 'vote_review_bot_interactions_total{handler="/vote",outcome="ok"}';
    expect(value(after, handled)).toBe((value(before, handled) ?? 0) + 1);
    const attempts = 'vote_review_bot_service_attempts_total{route="getVote",result="200"}';
    expect(value(after, attempts)).toBe((value(before, attempts) ?? 0) + 1);
    expect(value(after, 'vote_review_bot_interaction_duration_seconds_count{handler="/vote"}')).toBeGreaterThanOrEqual(
      1,
    );
    expect(value(after, 'vote_review_bot_interaction_first_response_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(
      value(after, 'vote_review_bot_interaction_responses_total{type="reply",result="accepted"}'),
    ).toBeGreaterThanOrEqual(1);
  });

  it('counts failed attempts by status and failed interactions by cause', async () => {
    world.sandbox.setFault('getReview', { status: 401, times: 1 });
    try {
      const handle = world.discord.sendInteraction(
        slashCommand({ name: 'review', member: member(), options: [{ name: 'member', type: 6, value: CRITIC }] }),
      );
      await handle.waitForMessage();
      await world.bot.waitForLog((l) => l.msg === 'interaction handled' && l.interactionId === handle.id);
    } finally {
      world.sandbox.clearFaults();
    }
    const text = await scrape(base);
    expect(value(text, 'vote_review_bot_service_attempts_total{route="getReview",result="401"}')).toBe(1);
    expect(value(text, 'vote_review_bot_interaction_failures_total{handler="/review",reason="unauthorized"}')).toBe(1);
  });

  it('serves the text format with HELP and TYPE for every family, all prefixed', async () => {
    const response = await fetch(`${base}/metrics`);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();
    const families = text
      .split('\n')
      .filter((l) => l.startsWith('# TYPE '))
      .map((l) => l.split(' ')[2]);
    expect(families).toEqual(
      expect.arrayContaining([
        'vote_review_bot_ready',
        'vote_review_bot_uptime_seconds',
        'vote_review_bot_process_resident_memory_bytes',
      ]),
    );
    for (const name of families) expect(name).toMatch(/^vote_review_bot_/);
    expect(value(text, 'vote_review_bot_ready')).toBe(1);
    expect(parsePrometheusText(text).get('vote_review_bot_nodejs_eventloop_lag_seconds')?.type).toBe('gauge');
    expect(value(text, 'vote_review_bot_process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
  });

  it('answers 404 for any other path', async () => {
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/debug`)).status).toBe(404);
  });

  it('never shows a secret or a user id', async () => {
    const all = (await scrape(base)) + (await (await fetch(`${base}/healthz`)).text());
    for (const secret of [world.discord.token, world.sandbox.apiKey, world.sandbox.appId, VOTER, CRITIC])
      expect(all).not.toContain(secret);
  });
});

describe('health during start and shutdown', () => {
  it('answers 503 while Discord cannot be reached yet', async () => {
    const port = await closedPort();
    const discord = await startDiscordStandIn();
    const bot = startBot({
      DISCORD_TOKEN: discord.token,
      DISCORD_CLIENT_ID: discord.applicationId,
      DISCORD_GUILD_ID: discord.guildId,
      DISCORD_API_URL: `http://127.0.0.1:${await closedPort()}/api`,
      SERVICE_BASE_URL: 'http://127.0.0.1:9/v1',
      SERVICE_API_KEY: 'k',
      SERVICE_APP_ID: 'a',
      METRICS_PORT: String(port),
    });
    try {
      await bot.waitForLog((l) => l.msg === 'health and metrics server listening');
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ status: 'starting', ready: false });
      expect(value(await scrape(`http://127.0.0.1:${port}`), 'vote_review_bot_ready')).toBe(0);
    } finally {
      await bot.stop('SIGKILL');
      await discord.close();
    }
  });

  it('answers 503 while draining on SIGTERM, then closes the port', async () => {
    const port = await closedPort();
    const world = await startWorld({ env: { METRICS_PORT: String(port) } });
    try {
      world.sandbox.setFault('getVote', { latencyMs: 1_000 });
      const handle = world.discord.sendInteraction(slashCommand({ name: 'vote', member: member() }));
      await world.discord.waitUntil(() => world.sandbox.requestCount('getVote') === 1, 5_000, 'the vote request');
      const exit = world.bot.stop('SIGTERM');
      await world.bot.waitForLog((l) => l.msg === 'shutting down');
      const draining = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(draining.status).toBe(503);
      expect(await draining.json()).toMatchObject({ status: 'stopping', ready: false });
      expect((await exit).code).toBe(0);
      expect(handle.message()?.embeds.length).toBeGreaterThan(0);
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toMatchObject({
        cause: { code: 'ECONNREFUSED' },
      });
    } finally {
      await world.close();
    }
  });

  it('listens on the address METRICS_HOST names (0.0.0.0 in a container), reached here through loopback', async () => {
    const port = await closedPort();
    const world = await startWorld({ env: { METRICS_PORT: String(port), METRICS_HOST: '0.0.0.0' } });
    try {
      const line = world.bot.logs.find((l) => l.msg === 'health and metrics server listening');
      expect(line).toMatchObject({ url: `http://0.0.0.0:${port}` });
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(response.status).toBe(200);
    } finally {
      await world.close();
    }
  });

  it('exits 78 (a setting to change: no restart) with a one-line reason naming METRICS_PORT when the port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    const world = await startWorld({ ready: false, env: { METRICS_PORT: String(port) } });
    try {
      const exit = await world.bot.exited;
      expect(exit.code).toBe(78);
      expect(world.bot.stderr().trim().split('\n')).toEqual([
        expect.stringMatching(new RegExp(`127\\.0\\.0\\.1:${port} \\(EADDRINUSE\\).*METRICS_PORT`)),
      ]);
    } finally {
      await world.close();
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

describe('without METRICS_PORT', () => {
  it('opens no port at all', async () => {
    const port = await closedPort();
    const world = await startWorld();
    try {
      expect(world.bot.logs.some((l) => l.msg === 'health and metrics server listening')).toBe(false);
      const handle = world.discord.sendInteraction(slashCommand({ name: 'votes', member: member() }));
      await handle.waitForMessage();
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toMatchObject({
        cause: { code: 'ECONNREFUSED' },
      });
      if (process.platform === 'linux') expect(listeningPorts(world.bot.child.pid!)).toEqual([]);
    } finally {
      await world.close();
    }
  });
});

/** TCP ports the process listens on (Linux): its socket inodes matched against /proc/net/tcp{,6}. */
function listeningPorts(pid: number): number[] {
  const inodes = new Set(
    readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? [];
      } catch {
        return [];
      }
    }),
  );
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) =>
    readFileSync(table, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((cols) => cols[3] === '0A' && inodes.has(cols[9] ?? ''))
      .map((cols) => parseInt(cols[1]!.split(':')[1]!, 16)),
  );
}

async function scrape(base: string): Promise<string> {
  const response = await fetch(`${base}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
}

/** The value of one series (`name{labels}` exactly as written), or undefined when absent. */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}
