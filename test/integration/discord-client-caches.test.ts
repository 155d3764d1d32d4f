import { afterEach, describe, expect, it } from '@jest/globals';
import { Events, type Client } from 'discord.js';
import { createDiscordClient } from '../../src/bot/client.js';
import { parseConfig } from '../../src/config/bot.js';
import { ShardOwnership } from '../../src/shards/ownership.js';
import { startDiscordStandIn, textChannelIdFor, type DiscordStandIn } from '../../tools/discord-standin/index.js';
import { VALID_ENV } from '../support/config-env.js';

let standIn: DiscordStandIn | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.destroy();
  await standIn?.close();
  client = undefined;
  standIn = undefined;
});

/** The bot's own client, logged into a stand-in where it is in two guilds. */
async function readyInTwoGuilds(): Promise<{ client: Client; ids: [string, string] }> {
  standIn = await startDiscordStandIn({ otherGuildIds: ['900000000000000001'] });
  const config = parseConfig({ ...VALID_ENV, DISCORD_API_URL: standIn.apiUrl, DISCORD_GUILD_ID: standIn.guildId });
  client = createDiscordClient(config, ShardOwnership.everything());
  const ready = new Promise((resolve) => client!.once(Events.ClientReady, resolve));
  await client.login(standIn.token);
  await ready;
  return { client, ids: [standIn.guildId, '900000000000000001'] };
}

describe("the Discord client's caches", () => {
  it('keeps what the bot reads of each guild: its roles, channels and own member', async () => {
    const { client, ids } = await readyInTwoGuilds();
    for (const id of ids) {
      const guild = client.guilds.cache.get(id)!;
      expect(guild.roles.cache.size).toBeGreaterThan(0);
      expect(guild.channels.cache.has(textChannelIdFor(id))).toBe(true);
      expect(guild.members.me?.id).toBe(client.user!.id);
    }
  });

  it('shares one empty cache among the managers that keep nothing, instead of one per guild and channel', async () => {
    const { client, ids } = await readyInTwoGuilds();
    const [a, b] = ids.map((id) => client.guilds.cache.get(id)!);
    const channel = a!.channels.cache.get(textChannelIdFor(a!.id));
    const empties: unknown[] = [
      a!.emojis.cache,
      b!.emojis.cache,
      b!.stickers.cache,
      b!.voiceStates.cache,
      b!.bans.cache,
      a!.commands.cache,
      b!.commands.cache,
      b!.soundboardSounds.cache,
    ];
    if (channel?.isTextBased()) empties.push(channel.messages.cache);
    expect(channel?.isTextBased()).toBe(true);
    for (const cache of empties) expect(cache).toBe(a!.emojis.cache);
    expect(a!.emojis.cache.size).toBe(0);
    // Its size stays 0 whatever arrives.
    a!.emojis.cache.set('1', undefined as never);
    expect(b!.emojis.cache.size).toBe(0);
    // Caches that hold something are each guild's own.
    expect(a!.roles.cache).not.toBe(b!.roles.cache);
    expect(a!.members.cache).not.toBe(b!.members.cache);
  });
});
