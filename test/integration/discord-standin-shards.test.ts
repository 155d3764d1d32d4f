import { afterEach, describe, expect, it } from '@jest/globals';
import { Client, Events, GatewayIntentBits, type Interaction } from 'discord.js';
import {
  guildIdOnShard,
  member,
  shardOf,
  slashCommand,
  startDiscordStandIn,
  type DiscordStandIn,
  type DiscordStandInOptions,
} from '../../tools/discord-standin/index.js';
import { holdClock } from '../support/held-clock.js';

let standIn: DiscordStandIn | undefined;
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.destroy()));
  await standIn?.close();
  standIn = undefined;
});

async function start(options: DiscordStandInOptions): Promise<DiscordStandIn> {
  standIn = await startDiscordStandIn(options);
  return standIn;
}

/** A client running `shards` of `shardCount`, logged in and ready; its interactions land in `received`. */
async function shardClient(
  stand: DiscordStandIn,
  shards: number[],
  shardCount: number,
): Promise<{ client: Client; received: Interaction[] }> {
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: stand.apiUrl }, shards, shardCount });
  clients.push(client);
  const received: Interaction[] = [];
  client.on(Events.InteractionCreate, (interaction) => received.push(interaction));
  const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
  await client.login(stand.token);
  await ready;
  return { client, received };
}

const onShards = (count: number, perShard: number): string[] =>
  Array.from({ length: count * perShard }, (_, i) => guildIdOnShard(i % count, count));

describe('the Discord stand-in with shards', () => {
  it('makes guild ids on the shard asked for', () => {
    for (let shard = 0; shard < 8; shard++) expect(shardOf(guildIdOnShard(shard, 8), 8)).toBe(shard);
    const ids = onShards(4, 50);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('answers GET /gateway/bot with the recommended shards and max_concurrency', async () => {
    const stand = await start({ recommendedShards: 8, maxConcurrency: 4 });
    const response = await fetch(`${stand.apiUrl}/v10/gateway/bot`, {
      headers: { authorization: `Bot ${stand.token}` },
    });
    const body = (await response.json()) as { shards: number; session_start_limit: { max_concurrency: number } };
    expect(body.shards).toBe(8);
    expect(body.session_start_limit.max_concurrency).toBe(4);
  });

  it("sends each guild's GUILD_CREATE and interactions only to the process running its shard", async () => {
    const [first, ...others] = onShards(2, 3);
    const stand = await start({ guildId: first, otherGuildIds: others, maxConcurrency: 2 });
    const zero = await shardClient(stand, [0], 2);
    const one = await shardClient(stand, [1], 2);
    const all = [first!, ...others];
    for (const [shard, bot] of [zero, one].entries()) {
      expect([...bot.client.guilds.cache.keys()].sort()).toEqual(all.filter((id) => shardOf(id, 2) === shard).sort());
    }
    expect(stand.connectedShards().sort()).toEqual([0, 1]);
    for (const guildId of all) stand.sendInteraction(slashCommand({ name: 'vote', guildId, member: member() }));
    await stand.waitUntil(() => zero.received.length + one.received.length === all.length, 5_000, 'interactions');
    expect(zero.received.map((i) => i.guildId).sort()).toEqual(all.filter((id) => shardOf(id, 2) === 0).sort());
    expect(one.received.map((i) => i.guildId).sort()).toEqual(all.filter((id) => shardOf(id, 2) === 1).sort());
    expect(stand.overlappingIdentifies).toBe(0);
    expect(stand.identifyPacingViolations).toBe(0);
  });

  it('holds a guild event until its shard identifies', async () => {
    const [onZero, onOne] = [guildIdOnShard(0, 2), guildIdOnShard(1, 2)];
    const stand = await start({ guildId: onZero, otherGuildIds: [onOne], maxConcurrency: 2 });
    const zero = await shardClient(stand, [0], 2);
    stand.sendInteraction(slashCommand({ name: 'vote', guildId: onOne, member: member() }));
    // A later interaction on shard 0's own socket: had the first gone there, it would have come first.
    stand.sendInteraction(slashCommand({ name: 'vote', guildId: onZero, member: member() }));
    await stand.waitUntil(() => zero.received.length > 0, 5_000, "shard 0's own interaction");
    expect(zero.received.map((i) => i.guildId)).toEqual([onZero]);
    const one = await shardClient(stand, [1], 2);
    await stand.waitUntil(() => one.received.length === 1, 5_000, 'the held interaction');
    expect(one.received[0]?.guildId).toBe(onOne);
  });

  it('counts identifies in one max_concurrency bucket that come sooner than the window', async () => {
    const stand = await start({ maxConcurrency: 1, identifyWindowMs: 60_000 });
    // Two processes each starting their own shard at once: discord.js paces within a process only.
    await Promise.all([shardClient(stand, [0], 2), shardClient(stand, [1], 2)]);
    expect(stand.identifies.map((record) => record.bucket)).toEqual([0, 0]);
    expect(stand.identifyPacingViolations).toBe(1);
  });

  it('sees one discord.js process with two shards wait out the identify window in one bucket', async () => {
    // discord.js's own wait (5 s, fixed in @discordjs/ws's SimpleIdentifyThrottler, on timers/promises
    // that no fake clock reaches) is the subject: this case takes those 5 s.
    const stand = await start({ maxConcurrency: 1 });
    await shardClient(stand, [0, 1], 2);
    const [first, second] = stand.identifies;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(5_000);
    expect(stand.identifyPacingViolations).toBe(0);
  }, 20_000);

  it('closes an identify for a shard outside its count with 4010', async () => {
    const stand = await start({});
    const client = new Client({
      intents: [GatewayIntentBits.Guilds],
      rest: { api: stand.apiUrl },
      shards: [2],
      shardCount: 2,
    });
    clients.push(client);
    const closed = new Promise<number>((resolve) => client.on(Events.ShardDisconnect, (event) => resolve(event.code)));
    void client.login(stand.token).catch(() => undefined);
    expect(await closed).toBe(4010);
  });
});

describe("the stand-in's global REST limit", () => {
  const get = (stand: DiscordStandIn, path: string, token?: string) =>
    fetch(`${stand.apiUrl}/v10${path}`, token ? { headers: { authorization: `Bot ${token}` } } : {});

  it('answers 429 global past 50 bot requests in a second and counts them', async () => {
    // This process sends the requests: its own stall while it makes 60 of them is no stall to excuse.
    const stand = await start({ excuseOwnStalls: false });
    // The stand-in counts in whole seconds of Date.now: the clock held at the start of one, so all
    // 60 fall in one window (timers and I/O stay real).
    const clock = holdClock(['Date', 'performance'], Math.ceil(Date.now() / 1000) * 1000);
    let responses: Response[];
    try {
      responses = await Promise.all(Array.from({ length: 60 }, () => get(stand, '/gateway/bot', stand.token)));
    } finally {
      clock.release();
    }
    const refused = responses.filter((response) => response.status === 429);
    expect(refused).toHaveLength(10);
    expect(refused[0]!.headers.get('x-ratelimit-global')).toBe('true');
    expect(((await refused[0]!.json()) as { global: boolean }).global).toBe(true);
    expect(stand.globalRateLimited).toBe(10);
    expect(Math.max(...stand.botRequestsPerSecond.values())).toBe(60);
  });

  it('does not count requests without the bot token, such as interaction callbacks', async () => {
    const stand = await start({});
    await Promise.all(Array.from({ length: 60 }, () => get(stand, '/interactions/1/x/callback')));
    expect(stand.globalRateLimited).toBe(0);
    expect(stand.botRequestsPerSecond.size).toBe(0);
  });
});
