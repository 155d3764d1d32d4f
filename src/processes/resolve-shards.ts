import { REST, Routes, type RESTGetAPIGatewayBotResult } from 'discord.js';
import { FatalStartError } from '../core/exit-codes.js';
import type { Config } from '../config/bot.js';
import { EXIT_CONFIG } from '../core/exit-codes.js';
import { ShardOwnership } from '../shards/ownership.js';
import { formatShardIds } from '../shards/shard-ids.js';

/**
 * The shards this process runs, out of the bot's count: SHARD_COUNT as set, or with `auto` the
 * count Discord recommends (GET /gateway/bot, asked once, before the store lock, which is per shard).
 */
export async function resolveShards(config: Config): Promise<ShardOwnership> {
  const { count, ids } = config.discord.shards;
  const total = count === 'auto' ? await recommendedShards(config) : count;
  const run = ids ?? Array.from({ length: total }, (_, i) => i);
  const outside = run.find((id) => id >= total);
  if (outside !== undefined)
    throw new FatalStartError(
      `SHARD_IDS (${formatShardIds(run)}) has shard ${outside}, but Discord recommends ${total} shards (SHARD_COUNT auto): set SHARD_COUNT to the number the deployment was planned for, or SHARD_IDS within 0-${total - 1}.`,
      EXIT_CONFIG,
    );
  return new ShardOwnership(total, run);
}

async function recommendedShards(config: Config): Promise<number> {
  const rest = new REST({ ...(config.discord.apiUrl ? { api: config.discord.apiUrl } : {}) }).setToken(
    config.discord.token,
  );
  try {
    const answer = (await rest.get(Routes.gatewayBot())) as RESTGetAPIGatewayBotResult;
    return Math.max(1, answer.shards);
  } catch (error) {
    if ((error as { status?: unknown }).status === 401)
      throw new FatalStartError(
        'Discord rejected the bot token (DISCORD_TOKEN): reset it in the Developer Portal (Bot → Reset Token) and update .env.',
        EXIT_CONFIG,
      );
    throw new FatalStartError(
      `Could not ask Discord for its recommended shard count (SHARD_COUNT auto): ${(error as Error).message}. Set SHARD_COUNT to a number, or check DISCORD_API_URL and the network.`,
    );
  } finally {
    rest.clearHashSweeper();
    rest.clearHandlerSweeper();
  }
}
