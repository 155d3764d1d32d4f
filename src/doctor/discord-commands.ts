import { Routes } from 'discord.js';
import { loadCommands } from '../bot/load-commands.js';
import { fail, pass, skip, type Check } from './check.js';
import { describeDiff, diffCommands } from '../guild-rules/command-diff.js';
import { discordReason } from './discord-api.js';

const COMMANDS_DIR = new URL('../../commands/', import.meta.url);

export const discordCommandsCheck: Check = {
  name: 'slash commands',
  async run(state) {
    const { config, discord, guild } = state;
    const many = config?.discord.guildId === undefined || state.oneOfMany === true;
    if (!config || !discord || (!guild && !many)) return skip('needs the bot in the server.');
    const local = [...(await loadCommands(COMMANDS_DIR)).values()].map(
      (command) => command.data.toJSON() as unknown as Record<string, unknown>,
    );
    let registered: Array<Record<string, unknown>>;
    try {
      const route =
        guild && !state.oneOfMany
          ? Routes.applicationGuildCommands(config.discord.clientId, guild.id)
          : Routes.applicationCommands(config.discord.clientId);
      registered = (await discord.get(route, {
        query: new URLSearchParams({ with_localizations: 'true' }),
      })) as Array<Record<string, unknown>>;
    } catch (error) {
      return fail(
        `could not read the registered commands (${discordReason(error)}).`,
        'invite the bot with the applications.commands scope, then run npm run deploy-commands.',
      );
    }
    const diff = diffCommands(local, registered);
    if (diff.missing.length + diff.extra.length + diff.changed.length > 0)
      return fail(`registered commands differ from commands/: ${describeDiff(diff)}.`, 'run npm run deploy-commands.');
    return pass(`${local.map((c) => `/${String(c.name)}`).join(', ')} registered as in commands/.`);
  },
};
