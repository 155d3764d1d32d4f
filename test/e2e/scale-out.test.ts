import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { startBot, type BotProcess } from '../../tools/bot-process.js';
import {
  guildIdOnShard,
  member,
  nextSnowflake,
  OptionType,
  shardOf,
  slashCommand,
  startDiscordStandIn,
  textChannelIdFor,
  voterRoleIdFor,
  type DiscordStandIn,
  type MemberPayload,
} from '../../tools/discord-standin/index.js';
import { deliver, reviewEvent, voteEvent } from '../../tools/guilds-webhook.js';
import { handledIn, multiServerBotEnv, reviewPosts, seedServers, voteMentions } from '../support/multi-server.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';
import { closedPort } from '../../tools/closed-port.js';
import { endsHandled, storeQuiet, unconfirmedVoters } from '../support/store-reads.js';

/*
 * Issue 19, "Done when", first item: three processes on one PostgreSQL (two bots splitting four
 * shards, one webhook receiver) serving 50 servers, the bots sending to Discord through the REST
 * proxy as deployed (straight to Discord, the two together drew global 429s in the burst below). Every delivery goes to the one receiver; each
 * server's work is done by the bot running its shard, once, across a SIGKILL and restart of one bot.
 */
const SHARD_COUNT = 4;
/** bots[n] runs these shards. */
const SHARD_IDS = ['0-1', '2-3'];
const SERVER_COUNT = 50;
const GUILDS = Array.from({ length: SERVER_COUNT }, (_, i) => guildIdOnShard(i % SHARD_COUNT, SHARD_COUNT));
const CREDENTIALS = GUILDS.map((_, i) => ({ apiKey: `scale-${i}-api-key-${3000 + i}`, appId: `scale-${i}-app-${i}` }));
/** Every other server gives voters a role while their vote runs. */
const WITH_ROLE = new Set(GUILDS.filter((_, i) => i % 2 === 0));
const SECRETS_KEY = randomBytes(32).toString('base64');
/** Far longer than any wait below: a post that comes in time came from NOTIFY or a start, not the poll. */
const INBOX_POLL_SECONDS = 60;
/**
 * How long each of the burst's votes runs from the moment the service first tells a bot of it: the
 * killed bot's servers' votes are read by its successor (or, read and stored before the kill, run
 * out while it is down), so their expiries are the successor's, however long the restart takes.
 */
const BURST_VOTE_MS = 8_000;

const ownerOf = (guildId: string) => (shardOf(guildId, SHARD_COUNT) < 2 ? 0 : 1);

let postgres: TestPostgres;
let sandbox: Sandbox;
let discord: DiscordStandIn;
let databaseUrl: string;
let tokens: Map<string, string>;
let receiverUrl: string;
let receiver: BotProcess;
/** `npm run rest-proxy`, as deployed: both bots send through it so they share Discord's 50/s. */
let restProxyUrl: string;
const bots: BotProcess[] = [];
const started: BotProcess[] = [];

function startBotProcess(index: number): BotProcess {
  const bot = startBot({
    ...multiServerBotEnv(discord, sandbox, SECRETS_KEY),
    DISCORD_API_URL: restProxyUrl,
    DATABASE_URL: databaseUrl,
    ROLE: 'bot',
    SHARD_COUNT: String(SHARD_COUNT),
    SHARD_IDS: SHARD_IDS[index]!,
    INBOX_POLL_SECONDS: String(INBOX_POLL_SECONDS),
    LOG_LEVEL: 'debug',
  });
  started.push(bot);
  bots[index] = bot;
  return bot;
}

const ready = (bot: BotProcess) => bot.waitForLog((line) => line.msg === 'ready', 30_000, 'the ready line');

beforeAll(async () => {
  [postgres, sandbox, discord] = await Promise.all([
    startPostgres(),
    startSandbox({ ...CREDENTIALS[0]!, moreCredentials: CREDENTIALS.slice(1) }),
    startDiscordStandIn({ guildId: GUILDS[0], otherGuildIds: GUILDS.slice(1), maxConcurrency: 2 }),
  ]);
  databaseUrl = await postgres.createDatabase();
  tokens = await seedServers(
    databaseUrl,
    SECRETS_KEY,
    GUILDS.map((guildId, i) => ({
      guildId,
      credentials: CREDENTIALS[i]!,
      settings: {
        reviewChannelId: textChannelIdFor(guildId),
        voteChannelId: textChannelIdFor(guildId),
        ...(WITH_ROLE.has(guildId) ? { voterRoleId: voterRoleIdFor(guildId) } : {}),
      },
    })),
  );
  const port = await closedPort();
  receiverUrl = `http://127.0.0.1:${port}/webhook`;
  receiver = startBot(
    { ROLE: 'receiver', DATABASE_URL: databaseUrl, WEBHOOK_PORT: String(port), WEBHOOK_HOST: '127.0.0.1', SECRETS_KEY },
    { script: 'receiver' },
  );
  started.push(receiver);
  const proxyPort = await closedPort();
  restProxyUrl = `http://127.0.0.1:${proxyPort}/api`;
  const proxy = startBot(
    { REST_PROXY_PORT: String(proxyPort), REST_PROXY_UPSTREAM: discord.apiUrl, LOG_LEVEL: 'info' },
    { script: 'rest-proxy' },
  );
  started.push(proxy);
  await Promise.all([
    receiver.waitForLog((line) => line.msg?.startsWith('webhook receiver listening') ?? false, 15_000),
    proxy.waitForLog((line) => line.msg === 'REST proxy listening', 15_000, 'the REST proxy'),
  ]);
  await Promise.all([0, 1].map((index) => ready(startBotProcess(index))));
}, 60_000);

afterAll(async () => {
  await Promise.all(started.map((p) => p.stop('SIGKILL')));
  await Promise.all([discord?.close(), sandbox?.close()]);
  await postgres?.stop();
}, 30_000);

async function send(guildId: string, body: unknown): Promise<void> {
  const status = await deliver(`${receiverUrl}/${guildId}`, tokens.get(guildId), body);
  if (status !== 200) throw new Error(`the receiver answered ${status} for ${guildId}`);
}

const command = (guildId: string, who: MemberPayload, name: string, sub?: string) =>
  discord.sendInteraction(
    slashCommand({
      name,
      guildId,
      member: who,
      options: sub === undefined ? [] : [{ name: sub, type: OptionType.Subcommand, options: [] }],
    }),
  );

/** Deliveries of the member's vote the bots took as a repeat of one already counted. */
const repeatsIgnored = (guildId: string, userId: string) =>
  bots
    .flatMap((bot) => bot.logs)
    .filter(
      (l) =>
        l.msg === 'vote already counted this period; delivery ignored' && l.guildId === guildId && l.userId === userId,
    ).length;

/** Posted anywhere: each event must be in its own server's channel and nowhere else. */
const everywhere = (count: (guildId: string) => number) => GUILDS.reduce((sum, g) => sum + count(g), 0);

describe(`${SERVER_COUNT} servers on two bot processes and one receiver, one PostgreSQL`, () => {
  it('runs each shard in exactly one process and no gateway in the receiver', () => {
    expect(discord.connectedShards().sort()).toEqual([0, 1, 2, 3]);
    expect(discord.overlappingIdentifies).toBe(0);
    expect(discord.identifyPacingViolations).toBe(0);
    expect(discord.gatewaySessions).toBe(SHARD_COUNT);
    expect(bots[0]!.logs.find((l) => l.msg === 'ready')?.shards).toEqual({ count: 4, ids: '0-1' });
    expect(bots[1]!.logs.find((l) => l.msg === 'ready')?.shards).toEqual({ count: 4, ids: '2-3' });
  });

  it('answers /vote in every server from the process owning it', async () => {
    await Promise.all(GUILDS.map((guildId) => command(guildId, member(), 'vote').waitForMessage()));
    for (const guildId of GUILDS) {
      const owner = ownerOf(guildId);
      await discord.waitUntil(() => handledIn(bots[owner]!, guildId, '/vote') === 1, 5_000, `/vote in ${guildId}`);
      expect(handledIn(bots[1 - owner]!, guildId)).toBe(0);
    }
  }, 30_000);

  it("posts every server's review and vote, sent to the one receiver, once in that server's channel", async () => {
    const events = GUILDS.map((guildId) => ({ guildId, reviewId: `rev_${nextSnowflake()}`, voter: nextSnowflake() }));
    await Promise.all(
      events.map(async ({ guildId, reviewId, voter }) => {
        await send(guildId, reviewEvent(guildId, { id: reviewId, authorId: nextSnowflake() }));
        // Twice, as Guilds repeats a delivery whose answer was late: still one announcement.
        await send(guildId, voteEvent(guildId, voter));
        await send(guildId, voteEvent(guildId, voter));
      }),
    );
    const done = () =>
      events.every(
        ({ guildId, reviewId, voter }) =>
          reviewPosts(discord, guildId, reviewId) > 0 && voteMentions(discord, guildId, voter) > 0,
      );
    await discord.waitUntil(done, 20_000, 'every review and vote posted');
    // Each server's second delivery of the vote was handled as a repeat, and nothing is left to post.
    await discord.waitUntil(
      () => events.every(({ guildId, voter }) => repeatsIgnored(guildId, voter) === 1),
      10_000,
      'each repeated vote handled as a repeat',
    );
    await storeQuiet(databaseUrl);
    for (const { guildId, reviewId, voter } of events) {
      expect([guildId, reviewPosts(discord, guildId, reviewId)]).toEqual([guildId, 1]);
      expect([guildId, voteMentions(discord, guildId, voter)]).toEqual([guildId, 1]);
      expect(everywhere((g) => reviewPosts(discord, g, reviewId))).toBe(1);
      expect(everywhere((g) => voteMentions(discord, g, voter))).toBe(1);
    }
  }, 30_000);

  it('loses nothing and does nothing twice when one bot is SIGKILLed mid-burst, while the other serves on', async () => {
    // Two members per server, known to Discord: the first asked to be reminded (/remind on).
    const voters = new Map(GUILDS.map((g) => [g, [member(), member()]]));
    await Promise.all(
      GUILDS.flatMap((g) => {
        const [reminded, other] = voters.get(g)!;
        return [command(g, reminded!, 'remind', 'on').waitForMessage(), command(g, other!, 'vote').waitForMessage()];
      }),
    );
    const reviews = new Map(GUILDS.map((g) => [g, `rev_${nextSnowflake()}`]));
    for (const [, members] of voters)
      for (const who of members) sandbox.setVoteFromFirstRead(who.user.id, BURST_VOTE_MS);
    const queue = GUILDS.flatMap((g) => [
      [g, reviewEvent(g, { id: reviews.get(g)!, authorId: nextSnowflake() })] as const,
      ...voters.get(g)!.map((who) => [g, voteEvent(g, who.user.id)] as const),
    ]).sort(() => Math.random() - 0.5);
    const total = queue.length;
    let acknowledged = 0;
    let killedAt = 0;
    let killed: Promise<unknown> | undefined;
    const sender = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        await send(next[0], next[1]);
        acknowledged += 1;
        if (acknowledged === Math.floor(total / 3)) {
          killedAt = performance.now();
          killed = bots[1]!.stop('SIGKILL');
        }
      }
    };
    // The receiver takes every delivery while a bot is dead: nothing waits on the bots.
    await Promise.all(Array.from({ length: 8 }, sender));
    expect(acknowledged).toBe(total);
    expect(await killed).toMatchObject({ signal: 'SIGKILL' });
    const survivors = GUILDS.filter((g) => ownerOf(g) === 0);
    const orphans = GUILDS.filter((g) => ownerOf(g) === 1);
    // A vote the killed bot had read from the service but whose end it had not stored yet is known to
    // no one: that end, fixed by the read, can pass before the successor asks, and then the service
    // says "no vote" while the store keeps the assumed 12 hours (a vote on Guilds ends 12 h after it
    // is cast, so the assumption is off only by the delivery's delay; the sandbox's end-from-first-read
    // is not). Those votes run from the successor's first read, wherever the kill fell.
    const orphanVoters = orphans.flatMap((g) => voters.get(g)!.map((who) => who.user.id));
    for (const userId of await unconfirmedVoters(databaseUrl, orphanVoters))
      sandbox.setVoteFromFirstRead(userId, BURST_VOTE_MS);

    // The survivor answers /vote in each of its servers during the outage, and posts their burst.
    const answerMs: number[] = [];
    await Promise.all(
      survivors.map(async (guildId) => {
        const asked = performance.now();
        await command(guildId, member(), 'vote').waitForMessage(2_500);
        answerMs.push(performance.now() - asked);
      }),
    );
    // One /vote each before the burst, one from the member who did not opt in, and this one.
    // The log line follows the answer.
    await discord.waitUntil(
      () => survivors.every((guildId) => handledIn(bots[0]!, guildId, '/vote') === 3),
      5_000,
      "the survivor's /vote log lines",
    );
    for (const guildId of orphans) expect(handledIn(bots[0]!, guildId)).toBe(0);
    const allPosted = (guilds: string[]) => () =>
      guilds.every(
        (g) =>
          reviewPosts(discord, g, reviews.get(g)!) > 0 &&
          voters.get(g)!.every((who) => voteMentions(discord, g, who.user.id) > 0),
      );
    await discord.waitUntil(allPosted(survivors), 15_000, "the survivor's servers' burst posted during the outage");
    const outageEndedAt = performance.now();
    expect(orphans.some((g) => !allPosted([g])())).toBe(true);

    const restartedAt = performance.now();
    const restarted = startBotProcess(1);
    await ready(restarted);
    const readyMs = performance.now() - restartedAt;
    await discord.waitUntil(allPosted(orphans), 20_000, "the restarted bot's servers' stored events posted");
    const servedAgainMs = performance.now() - restartedAt;

    // Each vote runs out: the voter role goes, the reminder comes, once each, from the owner.
    const everyone = [...voters].flatMap(([g, members]) => members.map((who) => [g, who.user.id] as const));
    const roleChanges = (g: string, userId: string, change: 'add' | 'remove') =>
      discord.roleChanges.filter((c) => c.guildId === g && c.userId === userId && c.change === change).length;
    const roleKept = () => everyone.filter(([g, userId]) => WITH_ROLE.has(g) && roleChanges(g, userId, 'remove') === 0);
    const unreminded = () => GUILDS.filter((g) => discord.directMessages(voters.get(g)![0]!.user.id).length === 0);
    await discord.waitUntil(
      () => roleKept().length === 0 && unreminded().length === 0,
      BURST_VOTE_MS + 20_000,
      () =>
        `every voter role taken back and every reminder sent; missing: roles ${JSON.stringify(
          roleKept().map(([g, userId]) => [g, userId, `bot ${ownerOf(g)}`, roleChanges(g, userId, 'add')]),
        )}, reminders ${JSON.stringify(unreminded().map((g) => [g, `bot ${ownerOf(g)}`]))}`,
    );
    // Nothing left to fire twice: each vote's end is gone from the store once every consumer (role,
    // reminder) acted on it, and the store holds nothing left to post.
    await endsHandled(
      databaseUrl,
      everyone.map(([, userId]) => userId),
    );
    await storeQuiet(databaseUrl);
    for (const g of GUILDS) {
      expect([g, everywhere((h) => reviewPosts(discord, h, reviews.get(g)!))]).toEqual([g, 1]);
      expect([g, reviewPosts(discord, g, reviews.get(g)!)]).toEqual([g, 1]);
    }
    for (const [g, userId] of everyone) {
      expect([g, userId, voteMentions(discord, g, userId)]).toEqual([g, userId, 1]);
      expect([g, userId, everywhere((h) => voteMentions(discord, h, userId))]).toEqual([g, userId, 1]);
      const roles = WITH_ROLE.has(g) ? 1 : 0;
      expect([g, userId, roleChanges(g, userId, 'add'), roleChanges(g, userId, 'remove')]).toEqual([
        g,
        userId,
        roles,
        roles,
      ]);
    }
    for (const g of GUILDS) {
      const [reminded, other] = voters.get(g)!;
      expect([g, discord.directMessages(reminded!.user.id).length]).toEqual([g, 1]);
      expect([g, discord.directMessages(other!.user.id).length]).toEqual([g, 0]);
    }
    expect(discord.overlappingIdentifies).toBe(0);
    // Not asserted: the proxy's one-second windows start where its own do, not where Discord's
    // (here the stand-in's) do, so a few requests can meet a global 429; the proxy waits each out
    // and sends it again, which the counts above show lost and doubled nothing. Reported below.
    expect(receiver.logs.filter((line) => (line.level ?? 0) >= 50)).toEqual([]);
    process.stdout.write(
      [
        `scale-out: ${total} deliveries, bot 1 SIGKILLed after ${Math.floor(total / 3)}`,
        `survivor's /vote answers during the outage: slowest ${Math.round(Math.max(...answerMs))} ms`,
        `outage (kill → restart started): ${Math.round(outageEndedAt - killedAt)} ms`,
        `restart → ready: ${Math.round(readyMs)} ms; restart → every stored event of its servers posted: ` +
          `${Math.round(servedAgainMs)} ms`,
        `Discord REST through the proxy: busiest second ${Math.max(...discord.botRequestsPerSecond.values())} requests, ` +
          `${discord.globalRateLimited} global 429s (each waited out and sent again)`,
        '',
      ].join('\n'),
    );
  }, 60_000);
});
