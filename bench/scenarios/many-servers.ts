import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Sandbox } from '../../src/sandbox/types.js';
import { secretKey } from '../../src/secrets/secret-box.js';
import { Servers } from '../../src/servers/servers.js';
import { openStore } from '../../src/store/index.js';
import { DEFAULTS, startDiscordStandIn, textChannelIdFor } from '../../tools/discord-standin/index.js';
import type { BenchBot, LogLine } from '../bots.js';
import { label, type Scenario } from '../context.js';
import { rssMb } from '../proc.js';
import { fullySetUp, timeSetupStatus } from './setup-status.js';
import { withBot } from './with-bot.js';

export const MANY_SERVERS = { servers: 1_000, idleMs: 10_000, startWithinMs: 60_000 } as const;

/** The guilds' ids: far enough apart that each one's channel and role ids (a few ms of snowflake time later) never meet another's. */
export function guildIds(count: number): string[] {
  const first = BigInt(DEFAULTS.guildId) + (1_000n << 22n);
  return Array.from({ length: count }, (_, i) => (first + BigInt(i) * (16n << 22n)).toString());
}

/**
 * What /setup leaves in the store for each server: its credentials sealed, a review channel; the
 * first server also has every other channel and its voter role, for `/setup status`.
 */
export async function setUpServers(file: string, key: string, ids: readonly string[], sandbox: Sandbox): Promise<void> {
  const root = await openStore({ kind: 'sqlite', file });
  try {
    const servers = new Servers(root, { current: secretKey(key, 'SECRETS_KEY') }, undefined);
    await servers.load();
    for (const guildId of ids) {
      await servers.setCredentials(guildId, { apiKey: sandbox.apiKey, appId: sandbox.appId });
      await servers.setSettings(guildId, { reviewChannelId: textChannelIdFor(guildId) });
    }
    await servers.setSettings(ids[0]!, fullySetUp(ids[0]!));
  } finally {
    await root.close();
  }
}

/** Many-server mode: no DISCORD_GUILD_ID and none of the one server's settings; SECRETS_KEY opens the store's secrets. */
export function manyServerEnv(file: string, key: string): Record<string, string> {
  return {
    DISCORD_GUILD_ID: '',
    SERVICE_API_KEY: '',
    SERVICE_APP_ID: '',
    MODERATOR_ROLE_IDS: '',
    REVIEW_LOG_CHANNEL_ID: '',
    SECRETS_KEY: key,
    DATABASE_URL: `file:${file}`,
  };
}

/** The bot's `servers started` line (logged once every set-up server the bot is in has its work running). */
export async function serversStarted(bot: BenchBot, withinMs: number): Promise<number> {
  const deadline = performance.now() + withinMs;
  let seen: LogLine[] = bot.startupLogs();
  for (;;) {
    const line = seen.find((l) => l.msg === 'servers started');
    if (line) return Number(line.servers);
    if (!bot.alive) throw new Error(`the bot exited before starting its servers: ${bot.stderr().slice(-500)}`);
    if (performance.now() > deadline) throw new Error(`no "servers started" line within ${withinMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    seen = bot.drainLogs();
  }
}

/**
 * RSS of our bot serving 1,000 set-up servers (each with sealed credentials and a review channel, its
 * own API client, lanes and schedule) while nothing happens: started in many-server mode against a
 * stand-in where the bot is in all of them, measured after ~10 s idle. Polling is off, as in every
 * other scenario (VOTE_POLL_SECONDS=0). Then, in the same bot, the time `/setup status` takes in the
 * first server. The baseline serves one server only and has no /setup, so it has no figure here.
 */
export const manyServersScenario: Scenario = async (ctx, kind) => {
  const ids = guildIds(MANY_SERVERS.servers);
  const key = randomBytes(32).toString('base64');
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-many-servers-'));
  const file = path.join(dir, 'bot.sqlite');
  const discord = await startDiscordStandIn({ otherGuildIds: ids, maxLog: 1_000 });
  const local = { ...ctx, discord, othersPeak: 0 };
  try {
    const filling = performance.now();
    await setUpServers(file, key, ids, ctx.sandbox);
    ctx.progress(
      `many servers: ${ids.length} servers set up in the store in ${((performance.now() - filling) / 1000).toFixed(1)} s`,
    );
    return await withBot(
      local,
      kind,
      `${ids.length} servers idle`,
      async (bot) => {
        const started = await serversStarted(bot, MANY_SERVERS.startWithinMs);
        if (started !== ids.length) throw new Error(`the bot started ${started} servers of ${ids.length}`);
        const atStart = rssMb(bot.pid);
        await new Promise((resolve) => setTimeout(resolve, MANY_SERVERS.idleMs));
        if (!bot.alive) throw new Error(`the bot exited while idle: ${bot.stderr().slice(-500)}`);
        const idle = rssMb(bot.pid);
        ctx.progress(
          `many servers ${label(kind)}: ${started} servers started, RSS ${atStart.toFixed(1)} MB, after ${MANY_SERVERS.idleMs / 1000} s idle ${idle.toFixed(1)} MB`,
        );
        ctx.note(
          `${label(kind)} with ${started} set-up servers (many-server mode, polling off): RSS ${atStart.toFixed(1)} MB once all had started, ${idle.toFixed(1)} MB after ${MANY_SERVERS.idleMs / 1000} s idle.`,
        );
        // The service at its normal speed, whatever fault or rate limit an earlier scenario left.
        ctx.sandbox.reset();
        const status = await timeSetupStatus(discord, bot, ids[0]!);
        for (const line of status.lines) {
          ctx.progress(`many servers ${label(kind)}: ${line}`);
          ctx.note(`${label(kind)} with ${started} set-up servers: ${line}.`);
        }
        return { 'rss.manyServers': idle, ...status.figures };
      },
      'info',
      manyServerEnv(file, key),
    );
  } finally {
    ctx.othersPeak = Math.max(ctx.othersPeak, local.othersPeak);
    await discord.close();
    rmSync(dir, { recursive: true, force: true });
  }
};
