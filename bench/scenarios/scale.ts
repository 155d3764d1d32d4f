import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
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
import { countsGlobally } from '../../tools/discord-standin/rate-limits.js';
import { deliver, reviewEvent } from '../../tools/guilds-webhook.js';
import { startPostgres } from '../../tools/postgres.js';
import type { Figures, Scenario } from '../context.js';
import { percentiles } from '../load.js';
import { cpuMs, rssMb } from '../proc.js';
import { serversStarted, startFleet, startFleetBot, type Fleet } from '../scale/fleet.js';
import { ingestInWorker } from '../scale/ingest.js';
import { busiestSlidingSecond, perSecond } from '../scale/rates.js';
import { topStatements } from '../scale/statements.js';
import { seedServers, spreadGuildIds } from '../scale/seed.js';

export const SCALE = {
  servers: 10_000,
  shards: 8,
  shardRanges: ['0-3', '4-7'],
  /** Discord's figure for every bot below 150,000 servers: one identify per 5 s, over all processes. */
  maxConcurrency: 1,
  /** The default VOTE_POLL_SECONDS; the poll window is one whole interval, so every server polls once in it. */
  pollSeconds: 60,
  /** DATABASE_POOL_SIZE of each bot process and the receiver. */
  poolSize: Number(process.env.BENCH_SCALE_POOL ?? 4),
  idleMs: 5_000,
  /** Reviews, one per server, at a rate inside the REST budget: webhook → post. */
  posts: { count: 300, rate: 20 },
  /**
   * Vote webhooks at rising rates into few servers (announcements batch per channel): what the
   * receiver accepts, first with the bots paused (the receiver process alone, on until a step fails),
   * then beside the bots handling what it stores.
   */
  ingest: {
    servers: 50,
    rates: [100, 250, 500, 1000, 2000],
    aloneRates: [250, 500, 1000, 1500, 2000, 3000, 4000, 6000, 8000],
    stepMs: 2_000,
    p99UnderMs: 50,
  },
  drainWithinMs: 90_000,
} as const;

/** A fleet's shape: its servers, shards, the two processes' shard ranges and the identify concurrency. */
export interface ScaleShape {
  servers: number;
  shards: number;
  shardRanges: readonly string[];
  maxConcurrency: number;
}

/**
 * The default run's shape at 10,000 servers; for another count (`--servers`), about 1,250 servers a
 * shard as there, in two processes, and max_concurrency 16, what Discord grants a bot that large.
 */
export function scaleShape(servers: number = SCALE.servers): ScaleShape {
  if (servers === SCALE.servers)
    return { servers, shards: SCALE.shards, shardRanges: SCALE.shardRanges, maxConcurrency: SCALE.maxConcurrency };
  const half = Math.ceil(servers / 2_500);
  return { servers, shards: 2 * half, shardRanges: [`0-${half - 1}`, `${half}-${2 * half - 1}`], maxConcurrency: 16 };
}

/** Discord's identify floor for a shape: one identify window (5 s) per round of max_concurrency shards, after the first. */
export const identifyFloorMs = (shape: ScaleShape): number =>
  (Math.ceil(shape.shards / shape.maxConcurrency) - 1) * 5_000;

/** The goal's figure: the larger process's RSS (MB) over the servers it runs, in KB a server. */
function largestPerServerKb(rssMbs: readonly number[], servers: readonly number[]): number {
  return Math.max(...rssMbs.map((mb, i) => (mb * 1024) / servers[i]!));
}

/** How often a member tries /vote again in a killed shard's server until one try is answered. */
const PROBE_MS = 1_000;
const WEBHOOK_TOKEN = 'scale-bench-webhook-token-0123456789';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Issue 19's scale figures: 10,000 set-up servers over 8 shards in 2 bot processes, one webhook
 * receiver and the REST proxy, all on one PostgreSQL, against one stand-in. Only our bot: the
 * baseline runs one server in one process.
 */
export const scaleScenario: Scenario = async (ctx) => {
  const shape = scaleShape(ctx.scaleServers);
  const ids = spreadGuildIds(shape.servers);
  const secretsKey = randomBytes(32).toString('base64');
  const postgres = await startPostgres();
  const sandboxStarted = performance.now();
  const sandbox = await startSandbox({ maxLog: 100_000 });
  const sandboxNow = () => performance.now() - sandboxStarted;
  const discord = await startDiscordStandIn({
    guildId: ids[0],
    otherGuildIds: ids.slice(1),
    maxConcurrency: shape.maxConcurrency,
    maxLog: 100_000,
  });
  let fleet: Fleet | undefined;
  try {
    const url = await postgres.createDatabase();
    const seeding = performance.now();
    await seedServers(url, secretsKey, ids, {
      apiKey: sandbox.apiKey,
      appId: sandbox.appId,
      webhookToken: WEBHOOK_TOKEN,
    });
    ctx.progress(
      `scale: ${ids.length} servers seeded in PostgreSQL (${postgres.kind}) in ${seconds(performance.now() - seeding)}`,
    );

    fleet = await startFleet(discord, sandbox, {
      databaseUrl: url,
      secretsKey,
      shardCount: shape.shards,
      shardRanges: shape.shardRanges,
      pollSeconds: SCALE.pollSeconds,
      poolSize: SCALE.poolSize,
    });
    const started = await Promise.all(fleet.bots.map(serversStarted));
    const readyMs = Math.max(...started.map((s, i) => s.at - fleet!.bots[i]!.spawnedAt));
    const running = started.map((s) => s.servers);
    ctx.progress(
      `scale: ${shape.shards} shards, max_concurrency ${shape.maxConcurrency}: ready after ${seconds(readyMs)} (identify floor ${seconds(identifyFloorMs(shape))}); servers per process ${running.join(' + ')}`,
    );
    if (running.reduce((a, b) => a + b, 0) !== ids.length)
      throw new Error(`the processes started ${running.join(' + ')} servers, not ${ids.length}`);

    await sleep(SCALE.idleMs);
    const rss = {
      bots: fleet.bots.map((b) => rssMb(b.process.child.pid!)),
      receiver: rssMb(fleet.receiver.child.pid!),
      proxy: rssMb(fleet.proxy.child.pid!),
    };
    const perServerKb = largestPerServerKb(rss.bots, running);
    ctx.progress(
      `scale: RSS bots ${rss.bots.map((mb) => mb.toFixed(0)).join(' + ')} MB, receiver ${rss.receiver.toFixed(0)} MB, proxy ${rss.proxy.toFixed(0)} MB; ${perServerKb.toFixed(1)} KB per server`,
    );

    ctx.progress(
      `scale: Discord REST in the last ${SCALE.idleMs / 1000} s: ${restRoutes(discord, Date.now() - SCALE.idleMs)}`,
    );
    const cpu = cpuOf(fleet);
    const pollFrom = sandboxNow();
    const post = await webhookToPost(discord, fleet.receiverUrl, ids.slice(SCALE.ingest.servers));
    ctx.progress(
      `scale: webhook → post p50 ${post.p50.toFixed(0)} ms, p99 ${post.p99.toFixed(0)} ms, unposted ${post.missing}`,
    );
    ctx.progress(`scale: CPU during it: ${cpu()}`);
    ctx.progress(`scale: bots' warnings so far: ${warnings(fleet)}`);
    ctx.progress(`scale: Discord REST during it: ${restRoutes(discord, Date.now() - 30_000)}`);
    for (const line of (await topStatements(url)) ?? []) ctx.progress(`scale: PostgreSQL so far: ${line}`);
    const pollWait = pollFrom + SCALE.pollSeconds * 1000 - sandboxNow();
    if (pollWait > 0) await sleep(pollWait);
    const polls = pollSpread(sandbox, pollFrom, pollFrom + SCALE.pollSeconds * 1000);
    ctx.progress(
      `scale: service requests ${polls.mean.toFixed(0)}/s mean, busiest second ${polls.busiest} (${(polls.busiest / polls.mean).toFixed(2)}×); routes ${polls.routes}`,
    );
    // The figure above is read while the first polls run; each server's voters are kept once it polled.
    const polledRss = fleet.bots.map((b) => rssMb(b.process.child.pid!));
    const polledPerServerKb = largestPerServerKb(polledRss, running);
    ctx.progress(
      `scale: RSS once every server has polled: bots ${polledRss.map((mb) => mb.toFixed(0)).join(' + ')} MB; ${polledPerServerKb.toFixed(1)} KB per server`,
    );

    // Ingest once the first poll round is over: a process's start-up (every server's first poll) is
    // what webhook → post above was measured against; deliveries are measured beside steady polling.
    // The receiver process alone: the bots are paused (SIGSTOP) and handle what it stored after.
    for (const bot of fleet.bots) bot.process.child.kill('SIGSTOP');
    let alone;
    try {
      alone = await ingestInWorker(
        {
          receiverUrl: fleet.receiverUrl,
          token: WEBHOOK_TOKEN,
          servers: ids.slice(0, SCALE.ingest.servers),
          rates: SCALE.ingest.aloneRates,
          stepMs: SCALE.ingest.stepMs,
          p99UnderMs: SCALE.ingest.p99UnderMs,
          untilFails: true,
        },
        (step) =>
          ctx.progress(
            `scale: ingest, receiver alone, at ${step.rate}/s: ${step.accepted} of ${step.sent} accepted, ${step.achieved.toFixed(0)}/s, p99 ${step.p99.toFixed(1)} ms`,
          ),
      );
    } finally {
      for (const bot of fleet.bots) bot.process.child.kill('SIGCONT');
    }
    ctx.progress(
      `scale: receiver alone: ${alone.rate.toFixed(0)}/s with 200 p99 ${alone.p99.toFixed(1)} ms; the ladder failed at ${alone.failedAt ? `${alone.failedAt.rate}/s (${alone.failedAt.accepted} of ${alone.failedAt.sent}, p99 ${alone.failedAt.p99.toFixed(1)} ms)` : 'no step'}`,
    );
    const ingestCpu = cpuOf(fleet);
    const ingest = await ingestInWorker(
      {
        receiverUrl: fleet.receiverUrl,
        token: WEBHOOK_TOKEN,
        servers: ids.slice(0, SCALE.ingest.servers),
        rates: SCALE.ingest.rates,
        stepMs: SCALE.ingest.stepMs,
        p99UnderMs: SCALE.ingest.p99UnderMs,
      },
      (step) =>
        ctx.progress(
          `scale: ingest at ${step.rate}/s: ${step.accepted} of ${step.sent} accepted, ${step.achieved.toFixed(0)}/s, p99 ${step.p99.toFixed(1)} ms`,
        ),
    );
    ctx.progress(`scale: CPU during the ingest steps: ${ingestCpu()}`);
    const drained = await drain(url, alone.accepted + ingest.accepted);
    ctx.progress(
      `scale: ${ingest.accepted} votes stored, all announced after ${seconds(drained.ms)}; lost ${drained.lost}`,
    );
    const recovery = await killAndRestart(discord, fleet, ids, 1, shape.shards);
    ctx.progress(
      `scale: after SIGKILL of shards ${shape.shardRanges[1]}: served again after ${seconds(recovery.servedMs)}, servers started after ${seconds(recovery.startedMs)}; other process answered ${recovery.othersAnswered} of ${recovery.othersAsked}`,
    );

    const rest = restBudget(discord);
    ctx.progress(
      `scale: Discord REST busiest second ${rest.busiest}, busiest sliding second ${rest.sliding}, global 429s ${discord.globalRateLimited}`,
    );
    ctx.note(
      `Scale: ${ids.length} servers, ${shape.shards} shards in ${shape.shardRanges.length} bot processes (${running.join(' + ')} servers), a receiver and the REST proxy on one PostgreSQL (${postgres.kind}), max_concurrency ${shape.maxConcurrency}: ready in ${seconds(readyMs)}; RSS ${rss.bots.map((mb) => mb.toFixed(0)).join(' + ')} MB (bots), ${rss.receiver.toFixed(0)} MB (receiver), ${rss.proxy.toFixed(0)} MB (proxy).`,
    );
    ctx.note(
      `Scale: Discord REST over the whole run through the proxy: busiest whole second ${rest.busiest}, busiest sliding second ${rest.sliding}, ${discord.globalRateLimited} global 429s; service requests ${polls.mean.toFixed(0)}/s mean, busiest second ${polls.busiest}.`,
    );
    const figures: Figures = {
      'scale.ready': readyMs,
      'scale.rssBot': Math.max(...rss.bots),
      'scale.rssReceiver': rss.receiver,
      'scale.rssPerServer': perServerKb,
      'scale.rssPerServerPolled': polledPerServerKb,
      'scale.ingestAloneRate': alone.rate,
      'scale.ingestAloneP99': alone.p99,
      'scale.ingestRate': ingest.rate,
      'scale.ingestP99': ingest.p99,
      'scale.postP99': post.p99,
      'scale.restBusiest': rest.busiest,
      'scale.restSliding': rest.sliding,
      'scale.global429': discord.globalRateLimited,
      'scale.pollMean': polls.mean,
      'scale.pollRatio': polls.busiest / polls.mean,
      'scale.recovered': recovery.servedMs,
      'scale.othersMissed': recovery.othersAsked - recovery.othersAnswered,
      'scale.lost': drained.lost + post.missing,
    };
    return figures;
  } finally {
    await fleet?.stop();
    await discord.close();
    await sandbox.close();
    await postgres.stop();
  }
};

/** One review per server at a rate inside the REST budget; each one's time from sending to its post seen in its channel. */
async function webhookToPost(
  discord: DiscordStandIn,
  receiverUrl: string,
  servers: readonly string[],
): Promise<{ p50: number; p99: number; missing: number }> {
  const run = randomBytes(3).toString('hex');
  const pending = new Map<string, { sentAt: number; tag: string }>();
  const latencies: number[] = [];
  const watch = setInterval(() => {
    const at = performance.now();
    for (const [guildId, { sentAt, tag }] of pending)
      if (discord.channelMessages(textChannelIdFor(guildId)).some((m) => textOf(m).includes(tag))) {
        latencies.push(at - sentAt);
        pending.delete(guildId);
      }
  }, 20);
  try {
    const sends: Array<Promise<number>> = [];
    for (const guildId of servers.slice(0, SCALE.posts.count)) {
      const tag = `scale ${run} ${guildId}`;
      pending.set(guildId, { sentAt: performance.now(), tag });
      const event = reviewEvent(guildId, { id: `rev_${run}_${guildId}`, authorId: nextSnowflake(), content: tag });
      sends.push(deliver(`${receiverUrl}/${guildId}`, WEBHOOK_TOKEN, event));
      await sleep(1000 / SCALE.posts.rate);
    }
    const statuses = await Promise.all(sends);
    if (statuses.some((s) => s !== 200)) throw new Error(`the receiver answered ${statuses.find((s) => s !== 200)}`);
    for (const deadline = performance.now() + 30_000; pending.size > 0 && performance.now() < deadline;)
      await sleep(100);
  } finally {
    clearInterval(watch);
  }
  const [p50, p99] = percentiles(latencies, [50, 99]);
  return { p50: p50!, p99: p99!, missing: pending.size };
}

/** Waits until every accepted vote is stored and announced (read from PostgreSQL); what is not is lost. */
async function drain(url: string, accepted: number): Promise<{ ms: number; lost: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const from = performance.now();
  try {
    for (;;) {
      const { rows } = await client.query<{ stored: string; waiting: string }>(
        `SELECT count(*) AS stored, count(*) FILTER (WHERE announced_at IS NULL AND post_id IS NULL) AS waiting FROM votes`,
      );
      const stored = Number(rows[0]!.stored);
      const waiting = Number(rows[0]!.waiting);
      if ((stored >= accepted && waiting === 0) || performance.now() - from > SCALE.drainWithinMs)
        return { ms: performance.now() - from, lost: Math.max(0, accepted - stored) + waiting };
      await sleep(250);
    }
  } finally {
    await client.end();
  }
}

/** Service requests per whole second over one poll interval (sandbox clock), and which routes they were. */
function pollSpread(sandbox: Sandbox, from: number, to: number): { mean: number; busiest: number; routes: string } {
  // Polls only: a delivered vote's refresh (getVote) follows the deliveries, not the poll schedule.
  const inWindow = sandbox.requests.filter((r) => r.at >= from && r.at < to && r.route === 'listVotes');
  const routes = new Map<string, number>();
  for (const r of inWindow) routes.set(r.route, (routes.get(r.route) ?? 0) + 1);
  const { busiest, mean } = perSecond(
    inWindow.map((r) => r.at),
    from,
    to,
  );
  return { busiest, mean, routes: [...routes].map(([route, n]) => `${route} ${n}`).join(', ') };
}

/**
 * SIGKILLs one bot process and starts it again at once, as a supervisor does. Meanwhile a member
 * runs /vote in one server of each of its shards (the stand-in holds each until the shard is back)
 * and in one server of each of the other process's shards, which must answer throughout.
 */
async function killAndRestart(
  discord: DiscordStandIn,
  fleet: Fleet,
  ids: readonly string[],
  index: number,
  shards: number,
): Promise<{ servedMs: number; startedMs: number; othersAnswered: number; othersAsked: number }> {
  const victim = fleet.bots[index]!;
  const shardsOf = (range: string) => {
    const [lo, hi] = range.split('-').map(Number);
    return Array.from({ length: hi! - lo! + 1 }, (_, i) => lo! + i);
  };
  const oneServerOn = (shard: number) => ids.find((id) => shardOf(id, shards) === shard)!;
  const killedAt = performance.now();
  await victim.process.stop('SIGKILL').catch(() => undefined);
  // Discord drops what a dead session missed: a member tries /vote again every PROBE_MS; the
  // shard counts as served at the first answer (in time or late) to any of those tries.
  const vote = async (shard: number) => {
    const tries: InteractionHandle[] = [];
    const answered = () => tries.some((t) => t.callbacks.length > 0 || t.rejectedCallbacks.length > 0);
    let triedAt = -Infinity;
    for (const giveUpAt = performance.now() + 90_000; performance.now() < giveUpAt;) {
      if (performance.now() - triedAt >= PROBE_MS) {
        triedAt = performance.now();
        tries.push(
          discord.sendInteraction(slashCommand({ name: 'vote', guildId: oneServerOn(shard), member: member() })),
        );
      }
      await sleep(50);
      if (answered()) return performance.now() - killedAt;
    }
    throw new Error(`shard ${shard}'s server was not answered within 90 s of the kill`);
  };
  const others = fleet.bots
    .filter((_, i) => i !== index)
    .flatMap((b) => shardsOf(b.shards))
    .map((shard) =>
      discord
        .sendInteraction(slashCommand({ name: 'vote', guildId: oneServerOn(shard), member: member() }))
        .firstCallback(3_000)
        .then(
          () => 1,
          () => 0,
        ),
    );
  const killed = shardsOf(victim.shards).map(vote);
  const restarted = startFleetBot(victim.shards, victim.env);
  fleet.bots[index] = restarted;
  const othersAnswered = (await Promise.all(others)).reduce<number>((a, b) => a + b, 0);
  const served = await Promise.all(killed).catch((error: unknown) => {
    const seen = restarted.process.logs
      .filter((l) => l.msg !== 'vote expiry schedule reconciled with the mirror' && l.msg !== 'vote mirror updated')
      .slice(-12)
      .map((l) => JSON.stringify(l).slice(0, 200));
    throw new Error(
      `${(error as Error).message}; REST proxy ${fleet.proxy.child.exitCode === null && fleet.proxy.child.signalCode === null ? 'running' : 'exited'}, its last lines: ${fleet.proxy.logs
        .slice(-3)
        .map((l) => JSON.stringify(l).slice(0, 400))
        .join(
          ' | ',
        )} ${fleet.proxy.stderr().slice(-300)}; connected shards [${discord.connectedShards().join(', ')}]; the restarted process logged: ${seen.join(' | ')}`,
    );
  });
  const started = await serversStarted(restarted);
  return {
    servedMs: Math.max(...served),
    startedMs: started.at - killedAt,
    othersAnswered,
    othersAsked: others.length,
  };
}

/** Every request with the bot's token that counts against its global limit, over all processes. */
function restBudget(discord: DiscordStandIn): { busiest: number; sliding: number } {
  const times = discord.requests
    .filter((r) => {
      const auth = r.headers.authorization;
      const segments = r.path.split('/').filter(Boolean);
      return countsGlobally(Array.isArray(auth) ? auth[0] : auth, segments);
    })
    .map((r) => r.at);
  return { busiest: Math.max(0, ...discord.botRequestsPerSecond.values()), sliding: busiestSlidingSecond(times) };
}

/** Discord REST requests since a time (epoch ms), by method and route shape: where the budget goes. */
function restRoutes(discord: DiscordStandIn, since: number): string {
  const routes = new Map<string, number>();
  for (const r of discord.requests) {
    if (r.at < since) continue;
    const shape = `${r.method} ${r.path.replace(/\d{15,}/g, ':id').replace(/\/interactions\/.*|\/webhooks\/.*/, '/…')}`;
    routes.set(shape, (routes.get(shape) ?? 0) + 1);
  }
  return (
    [...routes]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([shape, n]) => `${shape} ${n}`)
      .join(', ') || 'none'
  );
}

/** Starts measuring the fleet's CPU; the result describes each process's share of a core since. */
function cpuOf(fleet: Fleet): () => string {
  const named = [
    ...fleet.bots.map((b) => [`bot ${b.shards}`, b.process.child.pid!] as const),
    ['receiver', fleet.receiver.child.pid!] as const,
    ['proxy', fleet.proxy.child.pid!] as const,
    ['harness', process.pid] as const,
    ...postgresPids().map((pid) => ['postgres', pid] as const),
  ];
  // A PostgreSQL backend may end meanwhile: what it used is then not counted.
  const used = (pid: number) => {
    try {
      return cpuMs(pid);
    } catch {
      return Number.NaN;
    }
  };
  const from = { at: performance.now(), used: named.map(([, pid]) => used(pid)) };
  return () => {
    const wall = performance.now() - from.at;
    const shares = new Map<string, number>();
    named.forEach(([name, pid], i) =>
      shares.set(name, (shares.get(name) ?? 0) + ((used(pid) - from.used[i]!) / wall || 0)),
    );
    return [...shares].map(([name, share]) => `${name} ${(share * 100).toFixed(0)}%`).join(', ');
  };
}

/** PostgreSQL's processes (the postmaster and its backends), read from /proc: their CPU counts as the store's. */
function postgresPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false;
      }
    });
}

/** The bots' warnings and errors by message, most frequent first. */
function warnings(fleet: Fleet): string {
  const counts = new Map<string, number>();
  for (const bot of fleet.bots)
    for (const line of bot.process.logs)
      if ((line.level ?? 0) >= 40) {
        const err = (line.err as { message?: unknown } | undefined)?.message;
        const key = err === undefined ? String(line.msg) : `${String(line.msg)} (${String(err).slice(0, 80)})`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
  return (
    [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([msg, n]) => `${n}× ${msg}`)
      .join('; ') || 'none'
  );
}
