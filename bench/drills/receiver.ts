import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { nextSnowflake } from '../../tools/discord-standin/index.js';
import { deliverLikeGuilds, reviewEvent, voteEvent, type GuildsAttempt } from '../../tools/guilds-webhook.js';
import { startPostgres } from '../../tools/postgres.js';
import { freezePostgres } from '../../tools/postgres-freeze.js';
import { closedPort } from '../../tools/closed-port.js';
import type { BenchBot } from '../bots.js';
import type { BenchContext, Figures, Scenario } from '../context.js';
import type { DrillFigure } from './types.js';
import { percentiles } from '../load.js';
import { withBot } from '../scenarios/with-bot.js';
import { BENCH_WEBHOOK_TOKEN, benchReceiverEnv } from '../receiver-env.js';

/** The issue's full sizes; the e2e suite runs the same drills smaller (test/e2e/receiver-drills.test.ts). */
export const RECEIVER_DRILLS = {
  idleConnections: 20_000,
  /** Each holder process opens this many: a process of its own keeps the harness inside its open-file limit. */
  perHolder: 10_000,
  healthProbeMs: 10_000,
  wrongTokens: 20_000,
  wrongTokenWidth: 100,
  freezeMs: 20_000,
  freezeEveryMs: 200,
} as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The receiver against strangers and a stalled store, our bot only: 20,000 connections that send
 * nothing (is /healthz answered, when is a delivery retried as Guilds retries taken), 20,000
 * wrong-token requests (what reaches the log), and PostgreSQL frozen for 20 s (how fast every
 * delivery is answered, and whether every voter is announced once after the thaw).
 */
export const receiverDrillsScenario: Scenario = async (ctx) => {
  const figures: Figures = {};
  Object.assign(figures, await idleConnections(ctx));
  Object.assign(figures, await wrongTokens(ctx));
  Object.assign(figures, await frozenStore(ctx));
  return figures;
};

/** Opens connections in batches, sends nothing, prints the running count, and holds them until killed. */
const HOLDER = `
import { connect } from 'node:net';
const [host, port, count] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3])];
const sockets = [];
let opened = 0;
for (let start = 0; start < count; start += 500) {
  await Promise.all(Array.from({ length: Math.min(500, count - start) }, () => new Promise((resolve) => {
    const socket = connect(port, host);
    sockets.push(socket);
    socket.on('connect', () => { opened += 1; resolve(); });
    socket.on('data', () => {});
    socket.on('error', resolve);
    socket.on('close', resolve);
  })));
  process.stdout.write(JSON.stringify({ opened }) + '\\n');
}
setInterval(() => {}, 60_000);
`;

interface Holder {
  child: ChildProcess;
  opened: number;
}

function startHolder(url: string, count: number): Holder {
  const { hostname, port } = new URL(url);
  const child = spawn(process.execPath, ['--input-type=module', '-e', HOLDER, hostname, port, String(count)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const holder: Holder = { child, opened: 0 };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n').filter(Boolean))
      holder.opened = (JSON.parse(line) as { opened: number }).opened;
  });
  return holder;
}

/** GET /healthz on a new connection: the time to the answer, or Infinity when none came within 2 s. */
function probeHealthz(base: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(`${base}/healthz`, { agent: false, timeout: 2_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - started : Infinity));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(Infinity));
    req.end();
  });
}

async function idleConnections(ctx: BenchContext): Promise<Figures> {
  const healthPort = await closedPort();
  const base = `http://127.0.0.1:${healthPort}`;
  const { url, env } = await benchReceiverEnv(ctx, { VOTE_POLL_SECONDS: '0', METRICS_PORT: String(healthPort) });
  const n = RECEIVER_DRILLS.idleConnections;
  return withBot(
    ctx,
    'ours',
    `${n} idle connections`,
    async (bot) => {
      const holders = Array.from({ length: Math.ceil(n / RECEIVER_DRILLS.perHolder) }, (_, i) =>
        startHolder(url, Math.min(RECEIVER_DRILLS.perHolder, n - i * RECEIVER_DRILLS.perHolder)),
      );
      const opened = () => holders.reduce((sum, h) => sum + h.opened, 0);
      const floodStarted = performance.now();
      try {
        // The flood is on once a few thousand are open; the probes and the delivery start into it.
        while (opened() < 2_000 && performance.now() - floodStarted < 30_000) await sleep(10);
        const id = `rev_${nextSnowflake()}`;
        const sentAt = performance.now();
        let answeredAfterMs = Infinity;
        const delivering = deliverLikeGuilds(
          url,
          BENCH_WEBHOOK_TOKEN,
          reviewEvent(ctx.discord.guildId, { id, authorId: nextSnowflake() }),
        ).then((attempts) => {
          if (attempts.at(-1)?.outcome === 200) answeredAfterMs = performance.now() - sentAt;
          return attempts;
        });
        const probes: number[] = [];
        while (performance.now() - sentAt < RECEIVER_DRILLS.healthProbeMs) {
          probes.push(await probeHealthz(base));
          await sleep(100);
        }
        const attempts = await delivering;
        const floodMs = performance.now() - floodStarted;
        await ctx.discord
          .waitUntil(
            () => ctx.discord.channelMessages(ctx.discord.channelId).some((m) => JSON.stringify(m).includes(id)),
            15_000,
          )
          .catch(() => undefined);
        const posted = ctx.discord.channelMessages(ctx.discord.channelId).some((m) => JSON.stringify(m).includes(id));
        const [p50, p99] = percentiles(probes, [50, 99]);
        const failed = probes.filter((p) => !Number.isFinite(p)).length;
        for (const holder of holders) holder.child.kill('SIGKILL');
        const closedBy = await refusalCounts(bot);
        const line = `idle-connection drill: ${opened()} of ${n} connections opened (over ${(floodMs / 1000).toFixed(1)} s); /healthz p50 ${p50!.toFixed(1)} ms, p99 ${p99!.toFixed(1)} ms, ${failed} of ${probes.length} unanswered while held; a valid delivery answered 200 after ${(answeredAfterMs / 1000).toFixed(1)} s on try ${attempts.length} (${attempts.map((a) => a.outcome).join(', ')}; Guilds waits 5 s per try, then 1 s doubling), ${posted ? 'posted' : 'NOT posted'}; the bot closed ${closedBy.connection_cap ?? 0} at its cap (WEBHOOK_MAX_CONNECTIONS, default 512) and ${closedBy.timeout ?? 0} when silent past the header timeout`;
        ctx.progress(line);
        ctx.note(line);
        return {
          'receiver.idle.opened': opened(),
          'receiver.idle.healthP99': p99!,
          'receiver.idle.healthFailed': failed,
          'receiver.idle.deliveredAfterMs': answeredAfterMs,
          'receiver.idle.tries': attempts.length,
        };
      } finally {
        for (const holder of holders) holder.child.kill('SIGKILL');
      }
    },
    'info',
    env,
  );
}

/** Refusals by reason, from the bot's log lines up to its (graceful) exit. */
async function refusalCounts(bot: BenchBot): Promise<Record<string, number>> {
  await bot.terminate();
  const counts: Record<string, number> = {};
  for (const line of bot.drainLogs())
    if (typeof line.reason === 'string' && /^webhook deliver(y|ies) refused$/.test(String(line.msg)))
      counts[line.reason] = (counts[line.reason] ?? 0) + (typeof line.count === 'number' ? line.count : 1);
  return counts;
}

async function wrongTokens(ctx: BenchContext): Promise<Figures> {
  const { url, env } = await benchReceiverEnv(ctx, { VOTE_POLL_SECONDS: '0' });
  const n = RECEIVER_DRILLS.wrongTokens;
  return withBot(
    ctx,
    'ours',
    `${n} wrong-token requests`,
    async (bot) => {
      bot.drainLogs();
      const started = performance.now();
      let refused = 0;
      for (let start = 0; start < n; start += RECEIVER_DRILLS.wrongTokenWidth) {
        const statuses = await Promise.all(
          Array.from({ length: Math.min(RECEIVER_DRILLS.wrongTokenWidth, n - start) }, async (_, i) => {
            const response = await fetch(url, {
              method: 'POST',
              headers: { authorization: `guess-${start + i}-00000000000000`, 'content-type': 'application/json' },
              body: JSON.stringify(voteEvent(ctx.discord.guildId, nextSnowflake())),
            });
            await response.arrayBuffer();
            return response.status;
          }),
        );
        refused += statuses.filter((s) => s === 401).length;
      }
      const sendMs = performance.now() - started;
      await bot.terminate();
      const lines = bot.drainLogs();
      const bytes = lines.reduce((sum, l) => sum + JSON.stringify(l).length + 1, 0);
      const counted = lines
        .filter((l) => l.reason === 'token')
        .reduce((sum, l) => sum + (typeof l.count === 'number' ? l.count : 1), 0);
      const line = `wrong-token drill: ${n} requests in ${(sendMs / 1000).toFixed(1)} s, ${refused} answered 401; ${lines.length} log lines (${bytes} bytes) from the first request to the process's exit, counting ${counted} refusals`;
      ctx.progress(line);
      ctx.note(line);
      return {
        'receiver.tokens.requests': n,
        'receiver.tokens.logLines': lines.length,
        'receiver.tokens.logBytes': bytes,
      };
    },
    'info',
    env,
  );
}

async function frozenStore(ctx: BenchContext): Promise<Figures> {
  const postgres = await startPostgres();
  if (postgres.kind !== 'postgres') {
    await postgres.stop();
    throw new Error("the frozen-store drill needs PostgreSQL's own binaries (initdb, postgres) on PATH");
  }
  try {
    const database = await postgres.createDatabase();
    const { url, env } = await benchReceiverEnv(ctx, { VOTE_POLL_SECONDS: '0', DATABASE_URL: database });
    return await withBot(
      ctx,
      'ours',
      `PostgreSQL frozen ${RECEIVER_DRILLS.freezeMs / 1000} s`,
      async () => {
        const announced = (id: string) =>
          ctx.discord.channelMessages(ctx.discord.channelId).filter((m) => JSON.stringify(m).includes(`<@${id}>`))
            .length;
        const answers: Array<{ voter: string; attempt: GuildsAttempt }> = [];
        const frozen = await freezePostgres(database);
        try {
          const started = performance.now();
          const sending: Array<Promise<void>> = [];
          while (performance.now() - started < RECEIVER_DRILLS.freezeMs) {
            const voter = nextSnowflake();
            sending.push(
              deliverLikeGuilds(url, BENCH_WEBHOOK_TOKEN, voteEvent(ctx.discord.guildId, voter), { tries: 1 }).then(
                ([attempt]) => {
                  answers.push({ voter, attempt: attempt! });
                },
              ),
            );
            await sleep(RECEIVER_DRILLS.freezeEveryMs);
          }
          await Promise.all(sending);
        } finally {
          frozen.thaw();
        }
        const thawedAt = performance.now();
        const retried = await Promise.all(
          answers
            .filter((a) => a.attempt.outcome !== 200)
            .map((a) => deliverLikeGuilds(url, BENCH_WEBHOOK_TOKEN, voteEvent(ctx.discord.guildId, a.voter))),
        );
        const voters = answers.map((a) => a.voter);
        let allAnnouncedMs = Infinity;
        try {
          await ctx.discord.waitUntil(() => voters.every((v) => announced(v) >= 1), 60_000);
          allAnnouncedMs = performance.now() - thawedAt;
        } catch {
          // Reported as missing below.
        }
        const times = answers.map((a) => a.attempt.ms);
        const count = (outcome: GuildsAttempt['outcome']) =>
          answers.filter((a) => a.attempt.outcome === outcome).length;
        const missing = voters.filter((v) => announced(v) === 0).length;
        const twice = voters.filter((v) => announced(v) > 1).length;
        const retriedOk = retried.filter((r) => r.at(-1)?.outcome === 200).length;
        const line = `frozen-store drill: ${answers.length} deliveries while PostgreSQL was frozen ${RECEIVER_DRILLS.freezeMs / 1000} s; max answer ${Math.max(...times).toFixed(0)} ms; ${count(503)} answered 503, ${count(200)} 200, ${answers.length - count(503) - count(200)} other; ${retriedOk} of ${retried.length} retries took after the thaw; every voter announced ${Number.isFinite(allAnnouncedMs) ? `${(allAnnouncedMs / 1000).toFixed(1)} s after the thaw` : 'NOT within 60 s'} (${missing} missing, ${twice} twice)`;
        ctx.progress(line);
        ctx.note(line);
        return {
          'receiver.frozen.deliveries': answers.length,
          'receiver.frozen.maxAnswerMs': Math.max(...times),
          'receiver.frozen.503': count(503),
          'receiver.frozen.missing': missing,
          'receiver.frozen.twice': twice,
        };
      },
      'info',
      env,
    );
  } finally {
    await postgres.stop();
  }
}

/** The receiver drills as rows of the drills table, each held against what issue 16 asks. */
export function receiverRows(f: Figures): DrillFigure[] {
  const d = (name: string) => `Receiver: ${name}`;
  return [
    {
      drill: d(`${RECEIVER_DRILLS.idleConnections.toLocaleString('en')} idle connections`),
      figure: '/healthz probes unanswered while held',
      value: String(f['receiver.idle.healthFailed']),
      goal: '0',
      met: f['receiver.idle.healthFailed'] === 0,
    },
    {
      drill: d(`${RECEIVER_DRILLS.idleConnections.toLocaleString('en')} idle connections`),
      figure: 'a valid delivery (retried as Guilds retries) answered 200 after',
      value: `${((f['receiver.idle.deliveredAfterMs'] ?? NaN) / 1000).toFixed(1)} s, try ${f['receiver.idle.tries']}`,
      goal: 'within Guilds’ retries',
      met: Number.isFinite(f['receiver.idle.deliveredAfterMs']),
    },
    {
      drill: d(`${RECEIVER_DRILLS.wrongTokens.toLocaleString('en')} wrong-token requests`),
      figure: 'log lines',
      value: `${f['receiver.tokens.logLines']} (${f['receiver.tokens.logBytes']} bytes)`,
      goal: '< 100',
      met: (f['receiver.tokens.logLines'] ?? Infinity) < 100,
    },
    {
      drill: d(`PostgreSQL frozen ${RECEIVER_DRILLS.freezeMs / 1000} s`),
      figure: 'slowest answer to a delivery',
      value: `${Math.round(f['receiver.frozen.maxAnswerMs'] ?? NaN)} ms (${f['receiver.frozen.503']} of ${f['receiver.frozen.deliveries']} answered 503)`,
      goal: '≤ 2 s',
      met: (f['receiver.frozen.maxAnswerMs'] ?? Infinity) <= 2_000,
    },
    {
      drill: d(`PostgreSQL frozen ${RECEIVER_DRILLS.freezeMs / 1000} s`),
      figure: 'voters missing / announced twice after the thaw',
      value: `${f['receiver.frozen.missing']} / ${f['receiver.frozen.twice']}`,
      goal: '0 / 0',
      met: f['receiver.frozen.missing'] === 0 && f['receiver.frozen.twice'] === 0,
    },
  ];
}
