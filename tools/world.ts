import { startSandbox } from '../src/sandbox/server.js';
import type { Sandbox, SandboxOptions } from '../src/sandbox/types.js';
import { startBot, temporaryDatabaseUrl, type BotProcess } from './bot-process.js';
import { startDiscordStandIn, type DiscordStandIn, type DiscordStandInOptions } from './discord-standin/index.js';

export interface World {
  sandbox: Sandbox;
  discord: DiscordStandIn;
  bot: BotProcess;
  close(): Promise<void>;
}

export interface WorldOptions {
  env?: Record<string, string>;
  sandbox?: SandboxOptions;
  discord?: DiscordStandInOptions;
  /** Wait for the bot's ready log line (default true). */
  ready?: boolean;
  /** The bot's open-file limit (`ulimit -n`), as a small host would set it. */
  openFiles?: number;
}

/** The settings that connect a bot to the stand-in's server and the sandbox (tests and the playground). */
export function standInConnection(discord: DiscordStandIn, sandbox: Sandbox): Record<string, string> {
  return {
    DISCORD_TOKEN: discord.token,
    DISCORD_CLIENT_ID: discord.applicationId,
    DISCORD_GUILD_ID: discord.guildId,
    DISCORD_API_URL: discord.apiUrl,
    SERVICE_BASE_URL: sandbox.baseUrl,
    SERVICE_API_KEY: sandbox.apiKey,
    SERVICE_APP_ID: sandbox.appId,
    MODERATOR_ROLE_IDS: discord.moderatorRoleId,
  };
}

/** The environment that points a bot at the stand-in and the sandbox, as a host's .env would. */
export function botEnvironment(discord: DiscordStandIn, sandbox: Sandbox): Record<string, string> {
  return {
    ...standInConnection(discord, sandbox),
    REVIEW_LOG_CHANNEL_ID: discord.channelId,
    LOG_LEVEL: 'info',
    // Polling is a test's choice: it would add service requests that other tests count.
    VOTE_POLL_SECONDS: '0',
    // Each bot gets its own store: tests must not see each other's posts and votes.
    DATABASE_URL: temporaryDatabaseUrl(),
    // What the stand-in signs interactions over HTTP with; the endpoint is off until INTERACTIONS_PORT.
    DISCORD_PUBLIC_KEY: discord.publicKeyHex,
    // What the dashboard signs in with; it is off until DASHBOARD_PORT.
    DISCORD_CLIENT_SECRET: discord.clientSecret,
    DISCORD_OAUTH_AUTHORIZE_URL: discord.oauthAuthorizeUrl,
  };
}

/** The service sandbox, the Discord stand-in and the built bot wired to both, as in production. */
export async function startWorld(options: WorldOptions = {}): Promise<World> {
  const sandbox = await startSandbox(options.sandbox);
  const discord = await startDiscordStandIn(options.discord);
  const bot = startBot({ ...botEnvironment(discord, sandbox), ...options.env }, { openFiles: options.openFiles });
  const world = {
    sandbox,
    discord,
    bot,
    async close() {
      await bot.stop('SIGKILL');
      await Promise.all([discord.close(), sandbox.close()]);
    },
  };
  if (options.ready ?? true) {
    try {
      await bot.waitForLog((line) => line.msg === 'ready', 15_000, 'the ready log line');
    } catch (error) {
      await world.close();
      throw error;
    }
  }
  return world;
}
