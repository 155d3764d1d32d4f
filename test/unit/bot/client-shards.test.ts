import { afterEach, describe, expect, it } from '@jest/globals';
import { createDiscordClient } from '../../../src/bot/client.js';
import { parseConfig } from '../../../src/config/bot.js';
import { ShardOwnership } from '../../../src/shards/ownership.js';
import { VALID_ENV } from '../../support/config-env.js';

const saved = { SHARD_COUNT: process.env.SHARD_COUNT, SHARDS: process.env.SHARDS };
afterEach(() => {
  for (const [name, value] of Object.entries(saved))
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
});

describe('the Discord client and shards', () => {
  it('runs the shards this process owns, out of the count', async () => {
    const client = createDiscordClient(parseConfig(VALID_ENV), new ShardOwnership(8, [2, 3]));
    expect(client.options.shards).toEqual([2, 3]);
    expect(client.options.shardCount).toBe(8);
    await client.destroy();
  });

  it("is not misled by this bot's own SHARD_COUNT in the environment, which discord.js reads as its manager's", async () => {
    process.env.SHARD_COUNT = 'auto';
    process.env.SHARDS = '';
    const client = createDiscordClient(parseConfig(VALID_ENV), ShardOwnership.everything());
    expect(client.options.shards).toEqual([0]);
    expect(client.options.shardCount).toBe(1);
    expect(process.env.SHARD_COUNT).toBe('auto');
    await client.destroy();
  });
});
