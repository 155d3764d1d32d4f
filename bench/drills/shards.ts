import { randomBytes } from 'node:crypto';
import { startSandbox } from '../../src/sandbox/server.js';
import { startBot, type BotProcess } from '../../tools/bot-process.js';
import { closedPort } from '../../tools/closed-port.js';
import { textOf } from '../../tools/conversation.js';
import {
  member,
  nextSnowflake,
  shardOf,
  slashCommand,
  startDiscordStandIn,
  textChannelIdFor,
  type DiscordStandIn,
  type InteractionHandle,
} from '../../tools/discord-standin/index.js';
import { deliver, voteEvent } from '../../tools/guilds-webhook.js';
import { startPostgres } from '../../tools/postgres.js';
import { serversStarted, startFleet, type Fleet } from '../scale/fleet.js';
import { seedServers, spreadGuildIds } from '../scale/seed.js';
import type { Drill, DrillFigure } from './types.js';

/*
 * Issue 33's shards drill: bots on one PostgreSQL as a sharded deployment runs them (a REST proxy,
 * one webhook receiver, two bot processes running shards 0-1 and 2-3 of 4). A third process with
 * the same SHARD_IDS as the first must wait as a standby, a fourth with another SHARD_COUNT must
 * never act and say why, and when the first is SIGKILLed during a burst of votes the standby takes
 * its shards over with every vote announced exactly once. test/e2e/shard-drill.test.ts runs it small.
 */
const SHARD_COUNT = 4;
const RANGES = ['0-1', '2-3'];
/**
 * A count the others disagree with, running shards no one else holds a lock for: only the count
 * keeps it from acting for servers the others own.
 */
const MISMATCH = { count: 8, ids: '4-7' };
/** Discord's for every bot below 150,000 servers: one identify per 5 s over all processes. */
const MAX_CONCURRENCY = 1;
const WEBHOOK_TOKEN = 'shard-drill-webhook-token-0123456789';
/** Deliveries in flight at once, as Guilds sends a burst. */
const CONCURRENCY = 8;
const PROBE_MS = 1_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ShardDrillSize {
  servers: number;
  votesPerServer: number;
  /** How long every vote may take to be announced once the standby acts. */
  announcedWithinMs: number;
}

export const FULL_SIZE: ShardDrillSize = { servers: 200, votesPerServer: 10, announcedWithinMs: 120_000 };

/** What a process that must not act did while it waited. */
export interface Waiter {
  /** The reason its standby line gave, if it logged one. */
  reason: string | undefined;
  /** Its standby line's level (pino's number: 30 info, 40 warn). */
  level: number | undefined;
  /** `/healthz`'s status while it waited. */
  health: string | undefined;
  /** Gateway identifies it made (its shards as it counts them). */
  identifies: number;
  /** It logged ready or started any server's work. */
  acted: boolean;
}

export interface ShardDrillResult {
  /** SHARD_IDS 0-1 beside the first process's 0-1, before the kill. */
  standby: Waiter;
  /** SHARD_COUNT 2 beside 4, checked again after the burst; then its SIGTERM. */
  mismatch: Waiter & { waitingAfterBurst: boolean; exitOnSigterm: number | null };
  votes: number;
  /** Deliveries the receiver had taken when the first process was killed. */
  killedAfter: number;
  /** From the SIGKILL: the standby's ready line, and the first /vote answered on each of the killed shards. */
  takeover: { readyMs: number; servedMs: number };
  lost: number;
  twice: number;
  /** Votes announced in another server's channel. */
  elsewhere: number;
  /** Identifies for a shard whose session was still connected: a shard run by two processes. */
  overlappingIdentifies: number;
}

/** Mentions of each member in vote announcements, per channel the announcement is in. */
function mentions(discord: DiscordStandIn, guilds: readonly string[]): Map<string, Map<string, number>> {
  const byChannel = new Map<string, Map<string, number>>();
  for (const guildId of guilds) {
    const counts = new Map<string, number>();
    for (const message of discord.channelMessages(textChannelIdFor(guildId))) {
      if (!/new votes?$/i.test(message.embeds[0]?.title ?? '')) continue;
      for (const [, id] of textOf(message).matchAll(/<@(\d+)>/g)) counts.set(id!, (counts.get(id!) ?? 0) + 1);
    }
    byChannel.set(guildId, counts);
  }
  return byChannel;
}

async function healthOf(port: number): Promise<string | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/healthz`);
    return `${response.status} ${((await response.json()) as { status?: string }).status}`;
  } catch (error) {
    return (error as Error).message;
  }
}

/** A process started beside the fleet, with a health port, that should wait as a standby. */
function startWaiter(env: Record<string, string>, port: number, count: number, ids: string): BotProcess {
  return startBot({ ...env, METRICS_PORT: String(port), SHARD_COUNT: String(count), SHARD_IDS: ids });
}

const acted = (bot: BotProcess) => bot.logs.some((l) => l.msg === 'ready' || l.msg === 'server work started');

/** Its standby line's reason and /healthz once it logged one. */
async function waiting(bot: BotProcess, port: number): Promise<Pick<Waiter, 'reason' | 'level' | 'health'>> {
  const line = await bot.waitForLog((l) => String(l.msg).startsWith('standby:'), 30_000, 'the standby line');
  return {
    reason: typeof line.reason === 'string' ? line.reason : undefined,
    level: line.level,
    health: await healthOf(port),
  };
}

/**
 * Asks /vote in one server of each shard every PROBE_MS until each is answered (in time or late:
 * the stand-in holds an interaction until its shard is back); resolves with the slowest, from `from`.
 */
async function servedAgain(discord: DiscordStandIn, servers: readonly string[], from: number): Promise<number> {
  const probe = async (guildId: string) => {
    const tries: InteractionHandle[] = [];
    for (const giveUpAt = performance.now() + 90_000; performance.now() < giveUpAt;) {
      tries.push(discord.sendInteraction(slashCommand({ name: 'vote', guildId, member: member() })));
      for (const next = performance.now() + PROBE_MS; performance.now() < next;) {
        if (tries.some((t) => t.callbacks.length > 0 || t.rejectedCallbacks.length > 0))
          return performance.now() - from;
        await sleep(50);
      }
    }
    throw new Error(`${guildId} (shard ${shardOf(guildId, SHARD_COUNT)}) was not answered within 90 s of the kill`);
  };
  return Math.max(...(await Promise.all(servers.map(probe))));
}

/** Resolves undefined where the machine has no PostgreSQL: PGlite serves every connection from one session, so no lock holds. */
export async function runShardDrill(
  size: ShardDrillSize,
  progress: (line: string) => void,
): Promise<ShardDrillResult | undefined> {
  const guilds = spreadGuildIds(size.servers);
  const secretsKey = randomBytes(32).toString('base64');
  const postgres = await startPostgres();
  if (postgres.kind !== 'postgres') {
    await postgres.stop();
    return undefined;
  }
  const sandbox = await startSandbox({ maxLog: 10_000 });
  const discord = await startDiscordStandIn({
    guildId: guilds[0],
    otherGuildIds: guilds.slice(1),
    maxConcurrency: MAX_CONCURRENCY,
    maxLog: 100_000,
  });
  let fleet: Fleet | undefined;
  const others: BotProcess[] = [];
  try {
    const url = await postgres.createDatabase();
    await seedServers(url, secretsKey, guilds, {
      apiKey: sandbox.apiKey,
      appId: sandbox.appId,
      webhookToken: WEBHOOK_TOKEN,
    });
    fleet = await startFleet(discord, sandbox, {
      databaseUrl: url,
      secretsKey,
      shardCount: SHARD_COUNT,
      shardRanges: RANGES,
      pollSeconds: 0,
      poolSize: 4,
    });
    await Promise.all(fleet.bots.map(serversStarted));
    progress(`shards: ${size.servers} servers on shards ${RANGES.join(' and ')} of ${SHARD_COUNT}`);

    const env = fleet.bots[0]!.env;
    const [standbyPort, mismatchPort] = [await closedPort(), await closedPort()];
    const identifiesBefore = discord.identifies.length;
    const standbyBot = startWaiter(env, standbyPort, SHARD_COUNT, RANGES[0]!);
    const mismatchBot = startWaiter(env, mismatchPort, MISMATCH.count, MISMATCH.ids);
    others.push(standbyBot, mismatchBot);
    const [standbyWaits, mismatchWaits] = await Promise.all([
      waiting(standbyBot, standbyPort),
      waiting(mismatchBot, mismatchPort),
    ]);
    // A few polls more: a process that took the lock after all would have identified by now.
    await sleep(3_000);
    const standby = {
      ...standbyWaits,
      identifies: discord.identifies.length - identifiesBefore,
      acted: acted(standbyBot),
    };
    progress(`shards: standby ${standby.health}; other count: ${mismatchWaits.reason}`);

    const votes = guilds.flatMap((guildId) =>
      Array.from({ length: size.votesPerServer }, () => ({ guildId, userId: nextSnowflake() })),
    );
    const queue = [...votes].sort(() => Math.random() - 0.5);
    let acknowledged = 0;
    let killedAt = 0;
    let killedAfter = 0;
    let killed: Promise<unknown> | undefined;
    const sender = async () => {
      for (let vote = queue.shift(); vote; vote = queue.shift()) {
        const target = `${fleet!.receiverUrl}/${vote.guildId}`;
        // Guilds tries a delivery again until it is taken; the receiver never stops, so a minute is plenty.
        for (const giveUpAt = performance.now() + 60_000; ; await sleep(200)) {
          if ((await deliver(target, WEBHOOK_TOKEN, voteEvent(vote.guildId, vote.userId)).catch(() => 0)) === 200)
            break;
          if (performance.now() > giveUpAt) throw new Error(`the receiver did not take a vote for ${vote.guildId}`);
        }
        acknowledged += 1;
        if (acknowledged === Math.floor(votes.length / 3)) {
          killedAt = performance.now();
          killedAfter = acknowledged;
          killed = fleet!.bots[0]!.process.stop('SIGKILL');
        }
      }
    };
    const burst = Promise.all(Array.from({ length: CONCURRENCY }, sender));
    while (killedAt === 0) await Promise.race([sleep(10), burst]);
    const ready = standbyBot
      .waitForLog((l) => l.msg === 'ready', 60_000, "the standby's ready line")
      .then(() => performance.now() - killedAt);
    const firstOnShard = (shard: number) => guilds.find((g) => shardOf(g, SHARD_COUNT) === shard)!;
    const [servedMs, readyMs] = await Promise.all([
      servedAgain(discord, [0, 1].map(firstOnShard), killedAt),
      ready,
      killed,
      burst,
    ]);
    progress(`shards: ${votes.length} votes taken, the first process SIGKILLed after ${killedAfter}`);

    const everyoneShown = () => {
      const seen = mentions(discord, guilds);
      return votes.every((v) => (seen.get(v.guildId)?.get(v.userId) ?? 0) > 0);
    };
    for (const until = performance.now() + size.announcedWithinMs; !everyoneShown() && performance.now() < until;)
      await sleep(500);
    // Longer than the announcer gathers a batch: a second post of anything would be out by now.
    await sleep(3_000);
    const seen = mentions(discord, guilds);
    const own = votes.map((v) => seen.get(v.guildId)?.get(v.userId) ?? 0);
    const all = votes.map((v) => [...seen.values()].reduce((sum, counts) => sum + (counts.get(v.userId) ?? 0), 0));
    const mismatchStill = mismatchBot.child.exitCode === null && !mismatchBot.logs.some((l) => l.msg === 'ready');
    const mismatchIdentifies = discord.identifies.filter((i) => i.shard[1] !== SHARD_COUNT).length;
    const mismatchHealth = await healthOf(mismatchPort);
    const exit = await mismatchBot.stop('SIGTERM');
    return {
      standby,
      mismatch: {
        ...mismatchWaits,
        health: mismatchHealth,
        identifies: mismatchIdentifies,
        acted: acted(mismatchBot),
        waitingAfterBurst: mismatchStill,
        exitOnSigterm: exit.code,
      },
      votes: votes.length,
      killedAfter,
      takeover: { readyMs, servedMs },
      lost: own.filter((n) => n === 0).length,
      twice: own.filter((n) => n > 1).length,
      elsewhere: all.reduce((sum, n, i) => sum + n - own[i]!, 0),
      overlappingIdentifies: discord.overlappingIdentifies,
    };
  } finally {
    await Promise.all(others.map((bot) => bot.stop('SIGKILL').catch(() => undefined)));
    await fleet?.stop();
    await Promise.all([discord.close(), sandbox.close()]);
    await postgres.stop();
  }
}

/** pino's number for warn. */
const WARN = 40;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function shardFigures(r: ShardDrillResult): DrillFigure[] {
  const d = `Bots on shards ${RANGES.join(' and ')} of ${SHARD_COUNT} on one PostgreSQL, ${r.votes} votes`;
  const mismatchNamed = (r.mismatch.reason?.includes('SHARD_COUNT') ?? false) && r.mismatch.level === WARN;
  return [
    {
      drill: d,
      figure: `a third process with SHARD_IDS ${RANGES[0]}: /healthz, identifies before the kill`,
      value: `${r.standby.health}, ${r.standby.identifies}`,
      goal: '200 standby, 0',
      met: r.standby.health === '200 standby' && r.standby.identifies === 0 && !r.standby.acted,
    },
    {
      drill: d,
      figure: `one with SHARD_COUNT ${MISMATCH.count}: what it logs`,
      value: `${r.mismatch.level === WARN ? 'warn' : `level ${r.mismatch.level}`}: "${(r.mismatch.reason ?? 'nothing').replace(/\|/g, '/')}"`,
      goal: 'refused, a warning naming SHARD_COUNT',
      met: mismatchNamed,
    },
    {
      drill: d,
      figure: `… identifies, still waiting after the burst, exit on SIGTERM`,
      value: `${r.mismatch.identifies}, ${r.mismatch.waitingAfterBurst ? 'yes' : 'no'}, ${r.mismatch.exitOnSigterm}`,
      goal: '0, yes, 0',
      met:
        r.mismatch.identifies === 0 &&
        r.mismatch.waitingAfterBurst &&
        !r.mismatch.acted &&
        r.mismatch.exitOnSigterm === 0,
    },
    {
      drill: d,
      figure: `SIGKILL of the ${RANGES[0]} process, ${r.killedAfter} votes in → standby ready`,
      value: seconds(r.takeover.readyMs),
      goal: '—',
      met: true,
    },
    {
      drill: d,
      figure: '… → /vote answered again on both its shards',
      value: seconds(r.takeover.servedMs),
      goal: 'within 30 s',
      met: r.takeover.servedMs < 30_000,
    },
    {
      drill: d,
      figure: 'votes lost / announced twice / in another server',
      value: `${r.lost} / ${r.twice} / ${r.elsewhere}`,
      goal: '0 / 0 / 0',
      met: r.lost === 0 && r.twice === 0 && r.elsewhere === 0,
    },
    {
      drill: d,
      figure: 'shards run by two processes at once',
      value: String(r.overlappingIdentifies),
      goal: '0',
      met: r.overlappingIdentifies === 0,
    },
  ];
}

export const shardsDrill: Drill = {
  name: 'shards',
  async run(progress) {
    const result = await runShardDrill(FULL_SIZE, progress);
    if (!result) throw new Error('it needs PostgreSQL (initdb and postgres on PATH): PGlite holds no locks');
    return shardFigures(result);
  },
};
