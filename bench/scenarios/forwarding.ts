import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { secretKey } from '../../src/secrets/secret-box.js';
import { Servers } from '../../src/servers/servers.js';
import { openStore } from '../../src/store/index.js';
import { closedPort } from '../../tools/closed-port.js';
import { nextSnowflake, startDiscordStandIn } from '../../tools/discord-standin/index.js';
import { startForwardDestination, type ForwardDestination } from '../../tools/forward-destination.js';
import { requestAs } from '../../tools/list-senders/send.js';
import { label, type Scenario } from '../context.js';
import { percentiles } from '../load.js';
import { guildIds, manyServerEnv, serversStarted, setUpServers } from './many-servers.js';
import { withBot } from './with-bot.js';

// Issue 51: a forwarded vote leaves within 1 s (p99) of its delivery, with 5 destinations on each of
// 1,000 servers. Every destination is one local server (its path tells them apart) answering 200 at once.
export const FORWARDING = { servers: 1_000, destinations: 5, votes: 200, rate: 20, withinMs: 30_000 } as const;

const LISTING_SECRET = 'bench-forwarding-discordplace-0123';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Each server listed on discord.place with the bench's secret, and forwarding to `destinations` paths of `url`. */
async function addDestinations(file: string, key: string, ids: readonly string[], url: string): Promise<void> {
  const root = await openStore({ kind: 'sqlite', file });
  try {
    const servers = new Servers(root, { current: secretKey(key, 'SECRETS_KEY') }, undefined);
    await servers.load();
    for (const guildId of ids) {
      await servers.listings.add(guildId, 'discordplace', LISTING_SECRET);
      for (let i = 0; i < FORWARDING.destinations; i++) await servers.forwards.make(guildId, `${url}/${i}`);
    }
  } finally {
    await root.close();
  }
}

/** Sends one vote a server at `rate` a second; when each delivery got its 200, by member. */
async function sendVotes(base: string, ids: readonly string[]): Promise<Map<string, number>> {
  const answered = new Map<string, number>();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: FORWARDING.votes }, async (_, i) => {
      await sleep(Math.max(0, started + (i * 1000) / FORWARDING.rate - performance.now()));
      const guildId = ids[(i * 7) % ids.length]!;
      const memberId = nextSnowflake();
      const { url, headers, body } = requestAs('discordplace', {
        url: `${base}/${guildId}/discordplace`,
        secret: LISTING_SECRET,
        vote: { guildId, memberId },
      });
      const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      if (response.status === 200) answered.set(memberId, performance.now());
    }),
  );
  return answered;
}

/** Delivery (the list's 200) → each forwarded POST's arrival at the destination, over every vote and destination. */
async function measure(destination: ForwardDestination, base: string, ids: readonly string[]) {
  const arrived = new Map<string, number[]>();
  destination.answer = (received) => {
    const member = String(received.body.data?.member_id);
    arrived.set(member, [...(arrived.get(member) ?? []), performance.now()]);
    return { status: 200 };
  };
  const answered = await sendVotes(base, ids);
  const expected = answered.size * FORWARDING.destinations;
  await destination
    .waitUntil((r) => r.length >= expected, FORWARDING.withinMs, 'every forwarded vote')
    .catch(() => undefined);
  const latencies = [...answered].flatMap(([member, at]) => (arrived.get(member) ?? []).map((t) => t - at));
  return { latencies, lost: expected - latencies.length, refused: FORWARDING.votes - answered.size };
}

export const forwardingScenario: Scenario = async (ctx, kind) => {
  const ids = guildIds(FORWARDING.servers);
  const key = randomBytes(32).toString('base64');
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-forwarding-'));
  const file = path.join(dir, 'bot.sqlite');
  const discord = await startDiscordStandIn({ otherGuildIds: ids, maxLog: 1_000 });
  const destination = await startForwardDestination({ secret: 'unused' });
  const local = { ...ctx, discord, othersPeak: 0 };
  const port = await closedPort();
  try {
    await setUpServers(file, key, ids, ctx.sandbox);
    await addDestinations(file, key, ids, destination.url);
    const env = {
      ...manyServerEnv(file, key),
      WEBHOOK_PORT: String(port),
      WEBHOOK_HOST: '127.0.0.1',
      WEBHOOK_TOKEN: '',
      FORWARD_ALLOW_PRIVATE: 'true',
    };
    return await withBot(
      local,
      kind,
      `${FORWARDING.votes} votes forwarded to ${FORWARDING.destinations} destinations each`,
      async (bot) => {
        await serversStarted(bot, 60_000);
        const { latencies, lost, refused } = await measure(destination, `http://127.0.0.1:${port}/webhook`, ids);
        const [p50, p99] = percentiles(latencies, [50, 99]);
        const line = `${latencies.length} forwarded POSTs: p50 ${p50?.toFixed(1)} ms, p99 ${p99?.toFixed(1)} ms, ${lost} not within ${FORWARDING.withinMs / 1000} s, ${refused} deliveries refused`;
        ctx.progress(`forwarding ${label(kind)}: ${line}`);
        ctx.note(`${label(kind)}, ${FORWARDING.servers} servers × ${FORWARDING.destinations} destinations: ${line}.`);
        return { 'forward.p50': p50 ?? Infinity, 'forward.p99': p99 ?? Infinity, 'forward.lost': lost + refused };
      },
      'info',
      env,
    );
  } finally {
    ctx.othersPeak = Math.max(ctx.othersPeak, local.othersPeak);
    await Promise.all([discord.close(), destination.close()]);
    rmSync(dir, { recursive: true, force: true });
  }
};
