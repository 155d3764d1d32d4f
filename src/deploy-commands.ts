import { DiscordAPIError, REST, RouteBases, Routes } from 'discord.js';
import { loadCommands } from './bot/load-commands.js';
import { ConfigError, loadDeployConfig } from './config.js';
import { EXIT_CONFIG, EXIT_FAILURE } from './exit-codes.js';

/**
 * Registers the guild's slash commands with one bulk overwrite, so the list in Discord is exactly
 * the commands/ folder: renamed or removed commands disappear too.
 */
async function deploy(): Promise<void> {
  const config = loadDeployConfig();
  const commands = await loadCommands(new URL('../commands/', import.meta.url));
  const body = [...commands.values()].map((command) => command.data.toJSON());
  const rest = new REST({ api: config.apiUrl ?? RouteBases.api, timeout: 10_000, retries: 2 }).setToken(config.token);
  // One server: its own commands, at once. Many servers: global commands, in every server that invites the bot.
  const route =
    config.guildId === undefined
      ? Routes.applicationCommands(config.clientId)
      : Routes.applicationGuildCommands(config.clientId, config.guildId);
  const registered = (await rest.put(route, {
    body,
  })) as Array<{
    name: string;
    id: string;
  }>;
  process.stdout.write(
    `Registered ${registered.length} commands ${config.guildId === undefined ? 'globally (every server)' : `in guild ${config.guildId}`}:\n`,
  );
  for (const command of registered) process.stdout.write(`  /${command.name} (${command.id})\n`);
}

function explain(error: unknown): string {
  if (error instanceof ConfigError) return error.message;
  if (error instanceof DiscordAPIError) {
    if (error.status === 401)
      return 'Discord rejected DISCORD_TOKEN: reset the token in the Developer Portal and update .env.';
    if (error.status === 403 || error.status === 404) {
      return `Discord refused (${error.status} ${error.message}): check DISCORD_CLIENT_ID and DISCORD_GUILD_ID, and that the bot was invited to that server with the "bot applications.commands" scopes.`;
    }
    return `Discord refused the commands (${error.status}): ${error.message}`;
  }
  const e = error as { cause?: { code?: string }; message?: string };
  return `Could not register the commands: ${e.cause?.code ?? e.message ?? String(error)}. Check the network or DISCORD_API_URL.`;
}

/** 78 when a setting is wrong (so a scripted deploy does not retry it), 1 when trying again may work. */
function exitCode(error: unknown): number {
  if (error instanceof ConfigError) return EXIT_CONFIG;
  if (error instanceof DiscordAPIError && [401, 403, 404].includes(error.status)) return EXIT_CONFIG;
  return EXIT_FAILURE;
}

deploy().catch((error: unknown) => {
  process.stderr.write(`${explain(error)}\n`);
  process.exit(exitCode(error));
});
