import type { Guild } from 'discord.js';
import { ChannelType } from 'discord-api-types/v10';
import { channelMention } from '../core/discord-text.js';
import { UserFacingError } from '../bot/user-error.js';
import { channelPermissions, missingPermissions, permissionLabel } from '../guild-rules/channel-permissions.js';
import { POSTS } from '../guild-rules/channels.js';
import type { Translator } from '../i18n/index.js';
import type { SettingName } from '../config/server-variables.js';
import { changed, changeResult, type ApplyChange } from './change.js';
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

const isChannelKind = (value: string): value is ChannelKind => Object.hasOwn(CHANNEL_KINDS, value);

/** The channel types the bot posts in; the builder offers only these. */
export const POSTABLE_CHANNELS = [ChannelType.GuildText, ChannelType.GuildAnnouncement] as const;

export interface ChannelInput {
  /** A `ChannelKind`; anything else is refused as a stale command. */
  kind: string;
  /** The channel to post in; undefined turns the feature off. */
  channelId: string | undefined;
}

/** `/setup channel kind:… [target:…]`: sets the feature's channel after checking the bot can post there, or turns it off. */
export const applyChannel: ApplyChange<ChannelInput> = async (ctx, target, { kind, channelId }, actor) => {
  const { guildId, guild } = target;
  if (!isChannelKind(kind)) throw new UserFacingError('refusal.staleCommand');
  const setting = CHANNEL_KINDS[kind];
  refuseEnvironmentSetting(ctx.servers, guildId, setting);
  const feature = (i18n: Translator) => i18n.t(`setup.kind.${kind}`);
  if (channelId === undefined) {
    await ctx.setup.changes.setSettings(guildId, { [setting]: undefined });
    const vars = (i18n: Translator) => ({ feature: feature(i18n), command: '`/setup channel`' });
    return changed(ctx, target, actor, changeResult('setup.channel.off', vars));
  }
  if (!guild) throw new UserFacingError('refusal.serverUnseen');
  const missing = missingIn(guild, channelId);
  if (missing.length > 0)
    throw new UserFacingError('refusal.channelPermissions', {
      channel: channelMention(channelId),
      missing: missing.join(', '),
    });
  await ctx.setup.changes.setSettings(guildId, { [setting]: channelId });
  const vars = (i18n: Translator) => ({ feature: feature(i18n), channel: channelMention(channelId) });
  return changed(ctx, target, actor, changeResult('setup.channel.set', vars));
};

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
