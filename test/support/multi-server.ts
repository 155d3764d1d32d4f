import type { Sandbox } from '../../src/sandbox/types.js';
import { secretKey } from '../../src/secrets/secret-box.js';
import { Servers } from '../../src/servers/servers.js';
import { openStore, type ServerSettingsRecord } from '../../src/store/index.js';
import type { BotProcess, LogLine } from '../../tools/bot-process.js';
import { textOf } from '../../tools/conversation.js';
import {
  member,
  MODERATOR_PERMISSIONS,
  modalSubmit,
  OptionType,
  slashCommand,
  textChannelIdFor,
  type CommandOption,
  type DiscordStandIn,
} from '../../tools/discord-standin/index.js';
import { botEnvironment } from '../../tools/world.js';

/**
 * A bot serving every server that set it up (/setup), not one server from the environment: the
 * single-server settings blanked, as a host of many servers leaves them.
 */
export function multiServerBotEnv(discord: DiscordStandIn, sandbox: Sandbox, secretsKey: string) {
  return { ...botEnvironment(discord, sandbox), ...manyServerSettings(secretsKey) };
}

/** The single-server settings a host of many servers leaves blank, and the key that seals each server's secrets. */
export const manyServerSettings = (secretsKey: string) => ({
  DISCORD_GUILD_ID: '',
  SERVICE_API_KEY: '',
  SERVICE_APP_ID: '',
  MODERATOR_ROLE_IDS: '',
  REVIEW_LOG_CHANNEL_ID: '',
  SECRETS_KEY: secretsKey,
});

/** A `/setup` subcommand's options. */
export const sub = (name: string, options: CommandOption[] = []): CommandOption[] => [
  { name, type: OptionType.Subcommand, options },
];

/** A `/setup` subcommand in a group (`forward add`, `api-key create`). */
export const group = (name: string, subcommand: string, options: CommandOption[] = []): CommandOption[] => [
  { name, type: OptionType.SubcommandGroup, options: sub(subcommand, options) },
];

/**
 * `/setup` as a server's admin sends it, and `/setup credentials` filled in: the step that makes a
 * server set up on a bot of many servers.
 */
export function setupAsAdmin(discord: DiscordStandIn) {
  const admin = member({ permissions: MODERATOR_PERMISSIONS });
  const setup = (guildId: string, options: CommandOption[]) =>
    discord.sendInteraction(slashCommand({ name: 'setup', guildId, member: admin, options }));
  const credentials = async (guildId: string, key: { apiKey: string; appId: string }): Promise<void> => {
    const modal = await setup(guildId, sub('credentials')).waitForModal();
    await discord
      .sendInteraction(
        modalSubmit({
          customId: modal.custom_id,
          guildId,
          member: admin,
          fields: { api_key: key.apiKey, app_id: key.appId },
        }),
      )
      .waitForMessage(10_000);
  };
  return { admin, setup, credentials };
}

export interface SeededServer {
  guildId: string;
  credentials: { apiKey: string; appId: string };
  settings: ServerSettingsRecord;
}

/**
 * Writes servers into the store as /setup leaves them (credentials sealed with the key, settings,
 * a webhook token each) and returns each server's token.
 */
export async function seedServers(
  databaseUrl: string,
  secretsKey: string,
  servers: readonly SeededServer[],
): Promise<Map<string, string>> {
  const root = await openStore({ kind: 'postgres', url: databaseUrl });
  const tokens = new Map<string, string>();
  try {
    const store = new Servers(root, { current: secretKey(secretsKey, 'SECRETS_KEY') }, undefined);
    await store.load();
    for (const { guildId, credentials, settings } of servers) {
      await store.setCredentials(guildId, credentials);
      await store.setSettings(guildId, settings);
      tokens.set(guildId, await store.newWebhookToken(guildId));
    }
  } finally {
    await root.close();
  }
  return tokens;
}

/** Interactions a bot process logged as handled in the server (by one handler, e.g. `/vote`). */
export const handledIn = (bot: BotProcess, guildId: string, handler?: string): number =>
  bot.logs.filter(
    (line: LogLine) =>
      line.msg === 'interaction handled' &&
      line.guildId === guildId &&
      (handler === undefined || line.handler === handler),
  ).length;

/** How often the member is mentioned in vote announcements in the server's channel. */
export const voteMentions = (discord: DiscordStandIn, guildId: string, userId: string): number =>
  discord
    .channelMessages(textChannelIdFor(guildId))
    .filter((m) => /new votes?$/i.test(m.embeds[0]?.title ?? ''))
    .reduce((sum, m) => sum + textOf(m).split(`<@${userId}>`).length - 1, 0);

/** Review posts in the server's channel that name the review. */
export const reviewPosts = (discord: DiscordStandIn, guildId: string, reviewId: string): number =>
  discord
    .channelMessages(textChannelIdFor(guildId))
    .filter((m) => (m.embeds[0]?.title ?? '').startsWith('New review') && textOf(m).includes(reviewId)).length;
