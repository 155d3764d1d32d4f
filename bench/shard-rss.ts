/**
 * One process running 4 shards over one discord.js client, against 4 processes of one shard each
 * (what discord.js's ShardingManager spawns, its own manager process not counted): RSS after ready,
 * with the stand-in serving GUILDS servers spread over the shards.
 *
 *   npm run build:tools && node dist/bench/shard-rss.js
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client, Events, GatewayIntentBits } from 'discord.js';
import { guildIdOnShard, startDiscordStandIn } from '../tools/discord-standin/index.js';

const SHARDS = 4;
const GUILDS = 2_000;

/** Child: logs in with the shards given in argv, reports RSS once ready and settled. */
async function child(apiUrl: string, token: string, shards: number[]): Promise<void> {
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: apiUrl }, shards, shardCount: SHARDS });
  const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
  await client.login(token);
  await ready;
  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  process.send!({ rss: process.memoryUsage().rss, guilds: client.guilds.cache.size });
  await client.destroy();
  process.exit(0);
}

async function measure(apiUrl: string, token: string, groups: number[][]): Promise<number[]> {
  return Promise.all(
    groups.map(
      (shards) =>
        new Promise<number>((resolve, reject) => {
          const proc = fork(fileURLToPath(import.meta.url), ['child', apiUrl, token, shards.join(',')], {
            execArgv: ['--expose-gc'],
          });
          proc.once('message', (m: { rss: number }) => resolve(m.rss));
          proc.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`child exited ${code}`))));
        }),
    ),
  );
}

async function main(): Promise<void> {
  const ids = Array.from({ length: GUILDS }, (_, i) => guildIdOnShard(i % SHARDS, SHARDS));
  const discord = await startDiscordStandIn({
    guildId: ids[0],
    otherGuildIds: ids.slice(1),
    maxConcurrency: SHARDS,
    maxLog: 100,
  });
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
  const one = await measure(discord.apiUrl, discord.token, [[0, 1, 2, 3]]);
  const four = await measure(discord.apiUrl, discord.token, [[0], [1], [2], [3]]);
  const total = four.reduce((a, b) => a + b, 0);
  process.stdout.write(
    `${GUILDS} servers over ${SHARDS} shards, bare discord.js clients (RSS after ready):\n` +
      `  1 process, 4 shards:     ${mb(one[0]!)} MB\n` +
      `  4 processes, 1 shard each: ${four.map(mb).join(' + ')} = ${mb(total)} MB (a ShardingManager's children; its own process not counted)\n`,
  );
  await discord.close();
}

if (process.argv[2] === 'child')
  void child(process.argv[3]!, process.argv[4]!, process.argv[5]!.split(',').map(Number));
else void main();
