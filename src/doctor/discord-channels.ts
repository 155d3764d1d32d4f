import { Routes } from 'discord.js';
import { botInGuild, fail, pass, skip, type Check, type DoctorState, type Outcome } from './check.js';
import {
  channelPermissions,
  missingPermissions,
  permissionLabel,
  type Overwrite,
} from '../guild-rules/channel-permissions.js';
import { channelsToCheck, type ChannelToCheck } from '../guild-rules/channels.js';
import { discordReason, discordStatus } from './discord-api.js';

/** One check per channel in channelsToCheck, so each channel gets its own line. */
export function discordChannelChecks(state: DoctorState): Check[] {
  // With many servers the .env's channel and role settings are no server's: each server's own are
  // checked with --server <id> (which sets the server) or its /setup status.
  if (!state.config || state.config.discord.guildId === undefined) return [];
  return channelsToCheck(state.config).map((channel) => ({
    name: `${channel.label} (${channel.setting})`,
    run: (s) => checkChannel(s, channel),
  }));
}

async function checkChannel(state: DoctorState, channel: ChannelToCheck): Promise<Outcome> {
  if (channel.id === undefined) return pass('not set; nothing is posted there.');
  const { discord, guild, bot, botMember } = state;
  if (!discord || !guild || !bot || !botMember) return skip('needs the bot in the server.');
  let found: { name?: string | null; guild_id?: string; permission_overwrites?: Overwrite[] };
  try {
    found = (await discord.get(Routes.channel(channel.id))) as typeof found;
  } catch (error) {
    const status = discordStatus(error);
    if (status === 403 || status === 404)
      return fail(
        `the bot cannot see channel ${channel.id} (${discordReason(error)}).`,
        `check ${channel.setting}, and give the bot's role View Channel there.`,
      );
    return fail(`Discord did not answer (${discordReason(error)}).`, 'try again; check the network.');
  }
  if (found.guild_id !== guild.id)
    return fail(
      `channel ${channel.id} is not in ${guild.name}.`,
      `set ${channel.setting} to a channel of server ${guild.id}.`,
    );
  const bits = channelPermissions({
    ...botInGuild(guild, bot, botMember),
    overwrites: found.permission_overwrites ?? [],
  });
  const name = `#${found.name ?? channel.id}`;
  const missing = missingPermissions(bits, channel.needs).map(permissionLabel);
  if (missing.length > 0)
    return fail(
      `in ${name} the bot lacks ${missing.join(', ')}.`,
      `${name} → Edit Channel → Permissions: allow ${missing.join(', ')} for the bot's role (or the bot).`,
    );
  return pass(`in ${name} the bot can ${channel.needs.map(permissionLabel).join(', ')}.`);
}
