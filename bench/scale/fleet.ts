import type { Sandbox } from '../../src/sandbox/types.js';
import { startBot, type BotProcess } from '../../tools/bot-process.js';
import type { DiscordStandIn } from '../../tools/discord-standin/index.js';
import { closedPort } from '../../tools/closed-port.js';
import { botEnvironment } from '../../tools/world.js';

/** A bot process of the fleet: the shards it runs and the environment to start it again with. */
export interface FleetBot {
  shards: string;
  env: Record<string, string>;
  process: BotProcess;
  /** performance.now() when it was spawned. */
  spawnedAt: number;
}

export interface Fleet {
  proxy: BotProcess;
  receiver: BotProcess;
  /** `http://127.0.0.1:PORT/webhook`; a server's deliveries go to `<url>/<guild id>`. */
  receiverUrl: string;
  bots: FleetBot[];
  stop(): Promise<void>;
}

export interface FleetOptions {
  databaseUrl: string;
  secretsKey: string;
  shardCount: number;
  /** One SHARD_IDS per bot process, e.g. ['0-3', '4-7']. */
  shardRanges: readonly string[];
  pollSeconds: number;
  poolSize: number;
}

const STARTED_WITHIN_MS = 120_000;

/** `npm run rest-proxy` in front of the stand-in, as the deploy files run it. */
async function startProxy(discord: DiscordStandIn): Promise<{ proxy: BotProcess; apiUrl: string }> {
  const port = await closedPort();
  const proxy = startBot(
    { REST_PROXY_PORT: String(port), REST_PROXY_HOST: '127.0.0.1', REST_PROXY_UPSTREAM: discord.apiUrl },
    { script: 'rest-proxy' },
  );
  await proxy.waitForLog((line) => line.msg === 'REST proxy listening', 15_000, 'the REST proxy listening');
  return { proxy, apiUrl: `http://127.0.0.1:${port}/api` };
}

async function startReceiver(options: FleetOptions): Promise<{ receiver: BotProcess; url: string }> {
  const port = await closedPort();
  const receiver = startBot(
    {
      ROLE: 'receiver',
      DATABASE_URL: options.databaseUrl,
      SECRETS_KEY: options.secretsKey,
      WEBHOOK_PORT: String(port),
      WEBHOOK_HOST: '127.0.0.1',
      DATABASE_POOL_SIZE: String(options.poolSize),
      LOG_LEVEL: 'info',
    },
    { script: 'receiver' },
  );
  await receiver.waitForLog(
    (line) => typeof line.msg === 'string' && line.msg.startsWith('webhook receiver listening'),
    30_000,
    'the receiver listening',
  );
  return { receiver, url: `http://127.0.0.1:${port}/webhook` };
}

/** A bot process (ROLE=bot) in many-server mode running some of the shards, through the REST proxy. */
export function startFleetBot(shards: string, env: Record<string, string>): FleetBot {
  return { shards, env, process: startBot(env), spawnedAt: performance.now() };
}

/** Resolves once the bot has started every one of its servers' work; the line says how many. */
export async function serversStarted(bot: FleetBot): Promise<{ servers: number; at: number }> {
  const line = await bot.process.waitForLog(
    (l) => l.msg === 'servers started',
    STARTED_WITHIN_MS,
    `shards ${bot.shards}: servers started`,
  );
  return { servers: Number(line.servers), at: performance.now() };
}

/**
 * The deployment on one machine: a REST proxy, one webhook receiver and one bot process per
 * shard range, all on one PostgreSQL. The bots are spawned together; waiting for them is the caller's.
 */
export async function startFleet(discord: DiscordStandIn, sandbox: Sandbox, options: FleetOptions): Promise<Fleet> {
  const { proxy, apiUrl } = await startProxy(discord);
  const { receiver, url } = await startReceiver(options);
  const bots = options.shardRanges.map((shards) =>
    startFleetBot(shards, {
      ...botEnvironment(discord, sandbox),
      DISCORD_API_URL: apiUrl,
      DISCORD_GUILD_ID: '',
      SERVICE_API_KEY: '',
      SERVICE_APP_ID: '',
      MODERATOR_ROLE_IDS: '',
      REVIEW_LOG_CHANNEL_ID: '',
      ROLE: 'bot',
      SECRETS_KEY: options.secretsKey,
      DATABASE_URL: options.databaseUrl,
      SHARD_COUNT: String(options.shardCount),
      SHARD_IDS: shards,
      VOTE_POLL_SECONDS: String(options.pollSeconds),
      DATABASE_POOL_SIZE: String(options.poolSize),
      LOG_LEVEL: 'info',
    }),
  );
  return {
    proxy,
    receiver,
    receiverUrl: url,
    bots,
    async stop() {
      await Promise.all(
        [proxy, receiver, ...bots.map((b) => b.process)].map((p) => p.stop('SIGKILL').catch(() => undefined)),
      );
    },
  };
}
