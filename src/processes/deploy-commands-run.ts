import { DiscordAPIError, REST, Routes } from 'discord.js';
import { loadCommands } from '../bot/load-commands.js';
import { ConfigError } from '../config/load.js';
import { DISCORD_API } from '../config/shared-fields.js';
import { loadDeployConfig } from '../config/tools.js';
import { diffCommands, diffPhrases } from '../guild-rules/command-diff.js';
import { EXIT_CONFIG, EXIT_FAILURE } from '../core/exit-codes.js';

/**
 * Registers the guild's slash commands with one bulk overwrite, so the list in Discord is exactly
 * the commands/ folder: renamed or removed commands disappear too. A dry run only reads them.
 */
async function deploy(dryRun: boolean): Promise<void> {
  const config = loadDeployConfig();
  const commands = await loadCommands(new URL('../../commands/', import.meta.url));
  const body = [...commands.values()].map((command) => command.data.toJSON() as unknown as Record<string, unknown>);
  // REST adds the version itself: its base is Discord's /api, not RouteBases.api (which ends in /v10).
  const rest = new REST({ api: config.apiUrl ?? DISCORD_API, timeout: 10_000, retries: 2 }).setToken(config.token);
  // One server: its own commands, at once. Many servers: global commands, in every server that invites the bot.
  const route =
    config.guildId === undefined
      ? Routes.applicationCommands(config.clientId)
      : Routes.applicationGuildCommands(config.clientId, config.guildId);
  const where = config.guildId === undefined ? 'globally (every server)' : `in guild ${config.guildId}`;
  if (dryRun) {
    const registered = (await rest.get(route, {
      query: new URLSearchParams({ with_localizations: 'true' }),
    })) as Array<Record<string, unknown>>;
    const phrases = diffPhrases(diffCommands(body, registered));
    process.stdout.write(
      phrases.length === 0
        ? `Dry run: the ${registered.length} commands registered ${where} are those of commands/; nothing to change.\n`
        : `Dry run: deploying would change the commands registered ${where}; nothing was changed:\n${phrases.map((p) => `  ${p}\n`).join('')}`,
    );
    return;
  }
  const registered = (await rest.put(route, {
    body,
  })) as Array<{
    name: string;
    id: string;
  }>;
  process.stdout.write(`Registered ${registered.length} commands ${where}:\n`);
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

/** Deploys (or with `dryRun` only compares) the commands and exits with the outcome. */
export function runDeploy(dryRun: boolean): void {
  deploy(dryRun).catch((error: unknown) => {
    process.stderr.write(`${explain(error)}\n`);
    process.exit(exitCode(error));
  });
}
