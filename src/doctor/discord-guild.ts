import { Routes, type APIGuild, type APIGuildMember } from 'discord.js';
import { fail, pass, skip, type Check } from './check.js';
import { discordReason, discordStatus, UNREACHABLE_FIX } from './discord-api.js';

const inviteUrl = (clientId: string) =>
  `https://discord.com/oauth2/authorize?client_id=${clientId}&scope=bot+applications.commands&permissions=19456`;

export const discordGuildCheck: Check = {
  name: 'server',
  async run(state) {
    const { config, discord, bot } = state;
    if (!config || !discord || !bot) return skip('needs a working Discord token.');
    const guildId = config.discord.guildId;
    if (guildId === undefined) return skip('many servers: each server checks itself with /setup status.');
    let guild: APIGuild;
    let member: APIGuildMember;
    try {
      guild = (await discord.get(Routes.guild(guildId))) as APIGuild;
      member = (await discord.get(Routes.guildMember(guildId, bot.id))) as APIGuildMember;
    } catch (error) {
      const status = discordStatus(error);
      if (status === 403 || status === 404)
        return fail(
          `the bot is not in server ${guildId} (${discordReason(error)}).`,
          `check DISCORD_GUILD_ID, and invite the bot: ${inviteUrl(config.discord.clientId)}`,
        );
      return fail(`Discord did not answer (${discordReason(error)}).`, UNREACHABLE_FIX);
    }
    state.guild = { id: guild.id, name: guild.name, ownerId: guild.owner_id, roles: guild.roles };
    state.botMember = { roles: member.roles };
    return pass(`the bot is in ${guild.name} (${guild.id}).`);
  },
};
