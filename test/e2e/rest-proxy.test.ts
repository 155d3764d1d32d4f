import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { secretKey } from '../../src/secrets/secret-box.js';
import { Servers } from '../../src/servers/servers.js';
import { openStore } from '../../src/store/index.js';
import { startBot, type BotProcess } from '../../tools/bot-process.js';
import { textOf } from '../../tools/conversation.js';
import {
  nextSnowflake,
  startDiscordStandIn,
  textChannelIdFor,
  type DiscordStandIn,
  type RecordedRequest,
} from '../../tools/discord-standin/index.js';
import { deliver, reviewEvent } from '../../tools/guilds-webhook.js';
import { multiServerBotEnv } from '../support/multi-server.js';
import { closedPort } from '../../tools/closed-port.js';

/*
 * Issue 19, item 4: Discord's global budget (50 requests per second per bot, interaction callbacks
 * aside) holds across processes when they all send through one @discordjs/proxy (npm run
 * rest-proxy). Two bot processes each post a review in each of their 120 servers at once: 240
 * messages in 240 channels, so no per-channel limit paces them. Straight to Discord the two
 * together go past 50 per second; through the proxy they stay under it.
 */
const PER_BOT = 120;
const GLOBAL_LIMIT = 50;
const SECRETS_KEY = randomBytes(32).toString('base64');
const GUILDS = Array.from({ length: 2 * PER_BOT }, () => nextSnowflake());
const FIRST = GUILDS[0]!;
const HALVES = [GUILDS.slice(0, PER_BOT), GUILDS.slice(PER_BOT)] as const;

let discord: DiscordStandIn;
let sandbox: Sandbox;
const dirs: string[] = [];
const processes: BotProcess[] = [];

beforeAll(async () => {
  [discord, sandbox] = await Promise.all([
    startDiscordStandIn({ guildId: FIRST, otherGuildIds: GUILDS.slice(1) }),
    startSandbox(),
  ]);
}, 30_000);
afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop('SIGKILL')));
  await Promise.all([discord?.close(), sandbox?.close()]);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 30_000);

/** A SQLite store of its own with these servers set up; their webhook tokens. */
async function storeFor(guilds: readonly string[]): Promise<{ url: string; tokens: Map<string, string> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bot-proxy-'));
  dirs.push(dir);
  const file = path.join(dir, 'bot.sqlite');
  const root = await openStore({ kind: 'sqlite', file });
  const servers = new Servers(root, { current: secretKey(SECRETS_KEY, 'SECRETS_KEY') }, undefined);
  await servers.load();
  const tokens = new Map<string, string>();
  for (const guildId of guilds) {
    await servers.setCredentials(guildId, { apiKey: sandbox.apiKey, appId: sandbox.appId });
    await servers.setSettings(guildId, { reviewChannelId: textChannelIdFor(guildId) });
    tokens.set(guildId, await servers.newWebhookToken(guildId));
  }
  await root.close();
  return { url: `file:${file}`, tokens };
}

async function startBots(apiUrl: string) {
  return Promise.all(
    HALVES.map(async (guilds) => {
      const { url, tokens } = await storeFor(guilds);
      const port = await closedPort();
      const bot = startBot({
        ...multiServerBotEnv(discord, sandbox, SECRETS_KEY),
        DATABASE_URL: url,
        DISCORD_API_URL: apiUrl,
        WEBHOOK_PORT: String(port),
        WEBHOOK_HOST: '127.0.0.1',
      });
      processes.push(bot);
      await bot.waitForLog((line) => line.msg === 'ready', 30_000, 'the ready log line');
      return { bot, guilds, tokens, receiver: `http://127.0.0.1:${port}/webhook` };
    }),
  );
}

/**
 * Requests per second over the whole run, as a limiter of N per one-second window allows it: W
 * windows span at least W - 1 seconds between the first request and the last and hold at most W × N,
 * so count / (span + 1 s) stays at or under N whatever the windows' alignment.
 */
function ratePerSecond(requests: readonly RecordedRequest[]): number {
  const times = requests.map((r) => r.at);
  const spanSeconds = (Math.max(...times) - Math.min(...times)) / 1_000;
  return requests.length / (spanSeconds + 1);
}

/** The most requests in any sliding second, for the figure. */
function busiestSlidingSecond(requests: readonly RecordedRequest[]): number {
  const times = requests.map((r) => r.at).sort((a, b) => a - b);
  let most = 0;
  for (let first = 0, last = 0; last < times.length; last += 1) {
    while (times[last]! - times[first]! >= 1_000) first += 1;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/** Every bot posts a review in each of its servers at once; resolves with the requests Discord saw meanwhile. */
async function burst(bots: Awaited<ReturnType<typeof startBots>>): Promise<RecordedRequest[]> {
  const from = discord.requests.length;
  const reviewIds = new Map<string, string>();
  // Sixteen deliveries in flight per bot, as Guilds sends a burst: the bots, not the senders, set the pace.
  await Promise.all(
    bots.flatMap(({ guilds, tokens, receiver }) => {
      const queue = [...guilds];
      const sender = async () => {
        for (let guildId = queue.shift(); guildId; guildId = queue.shift()) {
          const id = `rev_${nextSnowflake()}`;
          reviewIds.set(guildId, id);
          const event = reviewEvent(guildId, { id, authorId: nextSnowflake() });
          expect(await deliver(`${receiver}/${guildId}`, tokens.get(guildId), event)).toBe(200);
        }
      };
      return Array.from({ length: 16 }, sender);
    }),
  );
  const posted = (guildId: string) =>
    discord.channelMessages(textChannelIdFor(guildId)).some((m) => textOf(m).includes(reviewIds.get(guildId)!));
  // Checked on every request the stand-in takes: a server found posted is not read again, so the
  // check stays light in the process that also plays Discord (its lag would bunch what it reads).
  const waiting = new Set(GUILDS);
  const everyPosted = () => {
    for (const guildId of waiting) if (posted(guildId)) waiting.delete(guildId);
    return waiting.size === 0;
  };
  await discord.waitUntil(everyPosted, 30_000, 'a review posted in every server');
  // Counted as Discord counts the global limit: every request but interaction callbacks.
  return discord.requests.slice(from).filter((r) => !r.path.startsWith('/interactions/'));
}

/** Messages Discord accepted: a refused (429) request is retried and counted again. */
function posted(requests: readonly RecordedRequest[]): number {
  return requests.filter((r) => r.method === 'POST' && r.path.endsWith('/messages') && r.status < 300).length;
}

async function stopAll(): Promise<void> {
  await Promise.all(processes.splice(0).map((p) => p.stop('SIGTERM')));
}

describe('two bot processes and the global REST limit', () => {
  let straight = { rate: 0, peak: 0 };

  it(`go past ${GLOBAL_LIMIT} requests a second, and get Discord's global 429s, when each sends straight to Discord`, async () => {
    const refusedBefore = discord.globalRateLimited;
    const bots = await startBots(discord.apiUrl);
    // Each process keeps its own budget of 50 a second: together they have 100 posts on their way at
    // once. The posts are held until 80 wait, then all reach Discord together, as they would on a
    // machine fast enough to send them at once (on a loaded one the two bots may send slower than 50
    // a second, and the stand-in's bucket would take them all).
    discord.holdChannelMessages(true);
    const bursting = burst(bots);
    try {
      await discord.waitUntil(() => discord.heldRequests >= 80, 30_000, '80 posts of the two bots waiting at once');
    } finally {
      discord.holdChannelMessages(false);
    }
    const requests = await bursting;
    // Every review is posted once in the end: the refused requests were retried.
    expect(posted(requests)).toBe(GUILDS.length);
    straight = { rate: ratePerSecond(requests), peak: busiestSlidingSecond(requests) };
    // The stand-in answers what is past its burst of 50 as Discord does: at least 30 of the 80.
    expect(discord.globalRateLimited - refusedBefore).toBeGreaterThanOrEqual(30);
    await stopAll();
  }, 90_000);

  it(`stay at ${GLOBAL_LIMIT} or fewer per second through one npm run rest-proxy, and post everything`, async () => {
    const port = await closedPort();
    const proxy = startBot(
      { REST_PROXY_PORT: String(port), REST_PROXY_UPSTREAM: discord.apiUrl, LOG_LEVEL: 'info' },
      { script: 'rest-proxy' },
    );
    processes.push(proxy);
    await proxy.waitForLog((line) => line.msg === 'REST proxy listening', 15_000, 'the proxy');
    const refusedBefore = discord.globalRateLimited;
    const bots = await startBots(`http://127.0.0.1:${port}/api`);
    const requests = await burst(bots);
    expect(posted(requests)).toBe(GUILDS.length);
    expect(discord.globalRateLimited - refusedBefore).toBe(0);
    const through = ratePerSecond(requests);
    expect(through).toBeLessThanOrEqual(GLOBAL_LIMIT);
    expect(requests.filter((r) => r.status === 429)).toEqual([]);
    // The token passes through the proxy on each request and never into its log.
    expect(JSON.stringify(proxy.logs)).not.toContain(discord.token);
    process.stdout.write(
      `requests per second: ${straight.rate.toFixed(1)} straight to Discord (busiest sliding second ${straight.peak}), ${through.toFixed(1)} through the proxy (busiest sliding second ${busiestSlidingSecond(requests)})\n`,
    );
    await stopAll();
  }, 90_000);
});
