import { Client, GatewayIntentBits, LimitedCollection, Options, type CacheFactory } from 'discord.js';
import type { Config } from '../config/bot.js';
import { SharedIdentifyThrottler } from '../shards/identify-throttler.js';
import type { ShardSet } from '../shards/ownership.js';
import type { InlineCallbacks } from './inline-callbacks.js';

/**
 * Slash commands and components need only the Guilds intent. Caches the bot never reads are off,
 * so memory stays flat however many members use it. With `inline`, interactions that came over
 * HTTP are answered in their HTTP response (see inline-callbacks.ts).
 */
export function createDiscordClient(config: Config, shards: ShardSet, inline?: InlineCallbacks): Client {
  const client = withoutShardingManagerEnv(() => newClient(config, shards, inline));
  inline?.attach(client);
  return client;
}

/**
 * discord.js takes SHARD_COUNT and SHARDS from the environment when the options equal its defaults,
 * as its ShardingManager passes them to child processes. This bot's SHARD_COUNT means something else
 * (`auto`, or empty when unset) and is already read by config/bot.ts, so the client is made without them.
 */
function withoutShardingManagerEnv<T>(make: () => T): T {
  const kept = { SHARD_COUNT: process.env.SHARD_COUNT, SHARDS: process.env.SHARDS };
  delete process.env.SHARD_COUNT;
  delete process.env.SHARDS;
  try {
    return make();
  } finally {
    for (const [name, value] of Object.entries(kept)) if (value !== undefined) process.env[name] = value;
  }
}

function newClient(config: Config, shards: ShardSet, inline: InlineCallbacks | undefined): Client {
  const { database } = config;
  return new Client({
    intents: [GatewayIntentBits.Guilds],
    // One process runs a set of shards over one client (@discordjs/ws paces their identifies by
    // max_concurrency), rather than a ShardingManager's child process per shard.
    shards: [...shards.ids],
    shardCount: shards.count,
    // Processes sharing a PostgreSQL store share Discord's identify limit too.
    ...(database.kind === 'postgres'
      ? {
          ws: {
            buildIdentifyThrottler: async (manager) => {
              const info = await manager.fetchGatewayInformation();
              return new SharedIdentifyThrottler(database.url, info.session_start_limit.max_concurrency);
            },
          },
        }
      : {}),
    allowedMentions: { parse: [] },
    rest: {
      ...(config.discord.apiUrl ? { api: config.discord.apiUrl } : {}),
      // discord.js's default 50/s global limit also throttles interaction webhooks (editReply,
      // followUp), which Discord itself does not count against the bot's global limit.
      globalRequestsPerSecond: config.discord.restRequestsPerSecond,
      ...(inline ? { makeRequest: inline.makeRequest } : {}),
    },
    makeCache,
  });
}

/** What the client caches: none of what the bot never reads, and only the bot's own member and user. */
const CACHE_LIMITS = {
  ...Options.DefaultMakeCacheSettings,
  MessageManager: 0,
  PresenceManager: 0,
  ReactionManager: 0,
  ReactionUserManager: 0,
  GuildEmojiManager: 0,
  GuildStickerManager: 0,
  GuildScheduledEventManager: 0,
  GuildInviteManager: 0,
  GuildBanManager: 0,
  StageInstanceManager: 0,
  VoiceStateManager: 0,
  ThreadManager: 0,
  ThreadMemberManager: 0,
  AutoModerationRuleManager: 0,
  ApplicationCommandManager: 0,
  GuildMemberManager: { maxSize: 0, keepOverLimit: (member) => member.id === member.client.user?.id },
  UserManager: { maxSize: 0, keepOverLimit: (user) => user.id === user.client.user?.id },
} satisfies Parameters<typeof Options.cacheWithLimits>[0];

const limitedCache = Options.cacheWithLimits(CACHE_LIMITS);

/**
 * A cache of size 0 never holds anything (its set() does nothing), so every manager that keeps
 * nothing shares this one instead of each guild and channel making a dozen empty ones: about 2.7 KB
 * of heap per guild, 13 MB in a process of 5,000 servers.
 */
const KEPT_EMPTY = new LimitedCollection({ maxSize: 0 });

/**
 * The limits by manager name, with the guild managers Options.cacheWithLimits's type has no setting
 * for, whose collections the bot never reads either: each guild made an empty one of its own for
 * each (about 0.4 KB a guild).
 */
const LIMITS_BY_NAME: Record<string, unknown> = {
  ...CACHE_LIMITS,
  GuildApplicationCommandManager: 0,
  GuildSoundboardSoundManager: 0,
};

/** Looks a manager's limit up as Options.cacheWithLimits does: by its own name, else its type's. */
const makeCache: CacheFactory = (managerType, holds, manager) => {
  const setting = LIMITS_BY_NAME[manager.name] ?? LIMITS_BY_NAME[managerType.name];
  return setting === 0 ? (KEPT_EMPTY as ReturnType<CacheFactory>) : limitedCache(managerType, holds, manager);
};
