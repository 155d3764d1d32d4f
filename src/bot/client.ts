import { Client, GatewayIntentBits, Options } from 'discord.js';
import type { Config } from '../config.js';

/**
 * Slash commands and components need only the Guilds intent. Caches the bot never reads are off,
 * so memory stays flat however many members use it.
 */
export function createDiscordClient(config: Config): Client {
  return new Client({
    intents: [GatewayIntentBits.Guilds],
    allowedMentions: { parse: [] },
    rest: {
      ...(config.discord.apiUrl ? { api: config.discord.apiUrl } : {}),
      // discord.js's default 50/s global limit also throttles interaction webhooks (editReply,
      // followUp), which Discord itself does not count against the bot's global limit.
      globalRequestsPerSecond: config.discord.restRequestsPerSecond,
    },
    makeCache: Options.cacheWithLimits({
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
      GuildMemberManager: { maxSize: 0, keepOverLimit: (member) => member.id === member.client.user.id },
      UserManager: { maxSize: 0, keepOverLimit: (user) => user.id === user.client.user.id },
    }),
  });
}
