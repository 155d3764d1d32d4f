import { channelMention, ChannelType, type ChatInputCommandInteraction, type Guild } from 'discord.js';
import type { BaseContext } from '../runtime/context.js';
import { setupName } from '../bot/command-options.js';
import { UserFacingError } from '../bot/user-error.js';
import { channelPermissions, missingPermissions, permissionLabel } from '../guild-rules/channel-permissions.js';
import { POSTS } from '../guild-rules/channels.js';
import { translatorFor } from '../i18n/index.js';
import type { SettingName } from '../servers/server-settings.js';
import type { MessageView } from '../views/message.js';
import { setupAnswer } from './answer.js';
import { botInGuild, overwritesOf } from '../guild-rules/guild-facts.js';
import { refuseEnvironmentSetting } from './manage-server.js';

/** The features that post in a channel, as `kind:` names them, with the setting each one sets. */
export const CHANNEL_KINDS = {
  review: 'reviewChannelId',
  votes: 'voteChannelId',
  audit: 'auditChannelId',
  reminders: 'reminderChannelId',
} as const satisfies Record<string, SettingName>;

export type ChannelKind = keyof typeof CHANNEL_KINDS;

export const isChannelKind = (value: string): value is ChannelKind => Object.hasOwn(CHANNEL_KINDS, value);

/** The channel types the bot posts in; the builder offers only these. */
export const POSTABLE_CHANNELS = [ChannelType.GuildText, ChannelType.GuildAnnouncement] as const;

/** `/setup channel kind:… [target:…]`: sets the feature's channel after checking the bot can post there, or turns it off. */
export async function setChannel(interaction: ChatInputCommandInteraction, ctx: BaseContext): Promise<MessageView> {
  const guildId = interaction.guildId!;
  const kind = interaction.options.getString(setupName('kind'), true);
  if (!isChannelKind(kind)) throw new UserFacingError('refusal.staleCommand');
  const setting = CHANNEL_KINDS[kind];
  refuseEnvironmentSetting(ctx.servers, guildId, setting);
  const i18n = translatorFor(interaction.locale);
  const feature = i18n.t(`setup.kind.${kind}`);
  const targetId = interaction.options.get(setupName('target'))?.value;
  if (typeof targetId !== 'string') {
    await ctx.servers.setSettings(guildId, { [setting]: undefined });
    return setupAnswer('setup.channel.off', { feature, command: '`/setup channel`' }, i18n);
  }
  const guild = interaction.guild;
  if (!guild) throw new UserFacingError('refusal.wrongServer');
  const missing = missingIn(guild, targetId);
  if (missing.length > 0)
    throw new UserFacingError('refusal.channelPermissions', {
      channel: channelMention(targetId),
      missing: missing.join(', '),
    });
  await ctx.servers.setSettings(guildId, { [setting]: targetId });
  return setupAnswer('setup.channel.set', { feature, channel: channelMention(targetId) }, i18n);
}

/**
 * What the bot lacks to post embeds in the channel, by the doctor's rule, from the permissions
 * discord.js has cached for the server. A channel that is not a text channel of this server is refused.
 */
export function missingIn(guild: Guild, channelId: string): string[] {
  const channel = guild.channels.cache.get(channelId);
  if (!channel || !(POSTABLE_CHANNELS as readonly ChannelType[]).includes(channel.type))
    throw new UserFacingError('refusal.notTextChannel');
  const bits = channelPermissions({ ...botInGuild(guild), overwrites: overwritesOf(channel) });
  return missingPermissions(bits, POSTS).map(permissionLabel);
}
