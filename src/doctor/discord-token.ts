import { Routes, type APIUser } from 'discord.js';
import { fail, pass, skip, type Check } from './check.js';
import { discordReason, discordStatus, doctorRest, UNREACHABLE_FIX } from './discord-api.js';

export const discordTokenCheck: Check = {
  name: 'Discord token',
  async run(state) {
    if (!state.config) return skip('needs a valid configuration.');
    const rest = doctorRest(state.config);
    let user: APIUser;
    try {
      user = (await rest.get(Routes.user())) as APIUser;
    } catch (error) {
      if (discordStatus(error) === 401)
        return fail(
          'Discord refused DISCORD_TOKEN (401).',
          'Developer Portal → your application → Bot → Reset Token, then put the new token in DISCORD_TOKEN.',
        );
      return fail(`Discord did not answer (${discordReason(error)}).`, UNREACHABLE_FIX);
    }
    state.discord = rest;
    state.bot = { id: user.id, name: user.username };
    if (user.id !== state.config.discord.clientId)
      return fail(
        `the token belongs to ${user.username} (${user.id}), not to application ${state.config.discord.clientId}.`,
        'set DISCORD_CLIENT_ID to the Application ID of the bot whose token is in DISCORD_TOKEN.',
      );
    return pass(`the bot is ${user.username} (${user.id}).`);
  },
};
