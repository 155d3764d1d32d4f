import type { Guild } from 'discord.js';
import { ChannelType } from 'discord-api-types/v10';
import { UserFacingError } from '../../bot/user-error.js';
import type { Translator } from '../../i18n/index.js';
import type { BaseContext } from '../../runtime/context.js';
import { SETTING_VARIABLES } from '../../config/server-variables.js';
import { applyChannel, CHANNEL_KINDS, missingIn, POSTABLE_CHANNELS, type ChannelKind } from '../../setup/channel.js';
import { settingFixed } from '../../setup/manage-server.js';
import type { Form } from '../form-body.js';
import { CHANNEL_FIELDS, CHANNEL_KIND_NAMES, type ChannelsPageInput } from '../pages/channels.js';
import type { ChannelChoice, RoleChoice } from '../pages/choices.js';
import { chosen } from './settings-change.js';
import type { Visit } from './kit.js';

/** The channels page's pickers, the channels set now and what keeps the bot from posting in each: the rewards page shows them too. */
export function channelsInput(base: BaseContext, v: Visit): ChannelsPageInput {
  const { guild, i18n } = v;
  const settings = base.servers.settings(guild.id);
  const current: Partial<Record<ChannelKind, string>> = {};
  const channelProblems: Partial<Record<ChannelKind, string[]>> = {};
  const fixed = new Map<ChannelKind | 'moderatorRoleIds', string>();
  for (const kind of CHANNEL_KIND_NAMES) {
    const setting = CHANNEL_KINDS[kind];
    if (settingFixed(base.servers, guild.id, setting)) fixed.set(kind, SETTING_VARIABLES[setting]);
    const channelId = settings?.[setting];
    if (channelId === undefined) continue;
    current[kind] = channelId;
    channelProblems[kind] = channelProblemsOf(guild, channelId, i18n);
  }
  if (settingFixed(base.servers, guild.id, 'moderatorRoleIds'))
    fixed.set('moderatorRoleIds', SETTING_VARIABLES.moderatorRoleIds);
  return {
    guildId: guild.id,
    csrf: v.csrf,
    channels: channelsOf(guild),
    roles: rolesOf(guild),
    current,
    channelProblems,
    moderatorRoleIds: settings?.moderatorRoleIds ?? [],
    fixed,
    i18n,
  };
}

/** A feature's channel form: on the channels page, and the reminders' on the rewards page. */
export const channelChange = (base: BaseContext, form: Form, v: Visit) =>
  applyChannel(
    base,
    v.target,
    { kind: form[CHANNEL_FIELDS.kind] ?? '', channelId: chosen(form[CHANNEL_FIELDS.channel]) },
    v.actor,
  );

/** The server's channels as the pickers list them: text and announcement channels are the ones offered. */
function channelsOf(guild: Guild): ChannelChoice[] {
  return [...guild.channels.cache.values()].flatMap((channel) =>
    channel.type === ChannelType.GuildCategory || channel.isThread()
      ? []
      : [
          {
            id: channel.id,
            name: channel.name,
            position: channel.rawPosition,
            postable: (POSTABLE_CHANNELS as readonly ChannelType[]).includes(channel.type),
          },
        ],
  );
}

/** Roles a member can be given: not @everyone, not a bot's or integration's own. */
function rolesOf(guild: Guild): RoleChoice[] {
  return [...guild.roles.cache.values()]
    .filter((role) => role.id !== guild.id && !role.managed)
    .map((role) => ({ id: role.id, name: role.name, position: role.position }));
}

/** What keeps the bot from posting in a feature's channel, by /setup channel's own check, in the member's words. */
function channelProblemsOf(guild: Guild, channelId: string, { t }: Translator): string[] {
  try {
    const missing = missingIn(guild, channelId);
    if (missing.length === 0) return [];
    const channel = `#${guild.channels.cache.get(channelId)?.name ?? channelId}`;
    return [t('setup.status.channelMissing', { channel, missing: missing.join(', ') })];
  } catch (error) {
    if (error instanceof UserFacingError) return [t(`${error.key}.text`, error.vars)];
    throw error;
  }
}
