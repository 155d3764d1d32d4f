import { snowflakeAt } from './snowflake.js';
import type { ChannelPayload, MemberPayload, RolePayload, UserPayload } from './types.js';

/** Permission bits the stand-in and the builders use (same values as discord.js PermissionFlagsBits). */
export const Permission = {
  CreateInstantInvite: 1n << 0n,
  Administrator: 1n << 3n,
  ManageChannels: 1n << 4n,
  ManageGuild: 1n << 5n,
  AddReactions: 1n << 6n,
  Stream: 1n << 9n,
  ViewChannel: 1n << 10n,
  SendMessages: 1n << 11n,
  ManageMessages: 1n << 13n,
  EmbedLinks: 1n << 14n,
  AttachFiles: 1n << 15n,
  ReadMessageHistory: 1n << 16n,
  UseExternalEmojis: 1n << 18n,
  Connect: 1n << 20n,
  Speak: 1n << 21n,
  UseVAD: 1n << 25n,
  ChangeNickname: 1n << 26n,
  ManageRoles: 1n << 28n,
  UseApplicationCommands: 1n << 31n,
  CreatePublicThreads: 1n << 35n,
  UseExternalStickers: 1n << 37n,
  SendMessagesInThreads: 1n << 38n,
  UseEmbeddedActivities: 1n << 39n,
  SendVoiceMessages: 1n << 46n,
  SendPolls: 1n << 49n,
  UseExternalApps: 1n << 50n,
} as const;

/** What @everyone gets in a freshly created guild: no Manage Server, no Administrator. */
export const MEMBER_PERMISSIONS =
  Permission.CreateInstantInvite |
  Permission.AddReactions |
  Permission.Stream |
  Permission.ViewChannel |
  Permission.SendMessages |
  Permission.EmbedLinks |
  Permission.AttachFiles |
  Permission.ReadMessageHistory |
  Permission.UseExternalEmojis |
  Permission.Connect |
  Permission.Speak |
  Permission.UseVAD |
  Permission.ChangeNickname |
  Permission.UseApplicationCommands |
  Permission.CreatePublicThreads |
  Permission.UseExternalStickers |
  Permission.SendMessagesInThreads |
  Permission.UseEmbeddedActivities |
  Permission.SendVoiceMessages |
  Permission.SendPolls |
  Permission.UseExternalApps;

/** A member with Manage Server (what the bot treats as a moderator without any moderator role). */
export const MODERATOR_PERMISSIONS = MEMBER_PERMISSIONS | Permission.ManageGuild | Permission.ManageMessages;

/** The "Moderator" role's own permissions: deliberately without Manage Server, so role and permission checks can be told apart. */
const MODERATOR_ROLE_PERMISSIONS = MEMBER_PERMISSIONS | Permission.ManageMessages;

const BOT_PERMISSIONS = MEMBER_PERMISSIONS | Permission.ManageMessages | Permission.ManageRoles;

/**
 * Ids used when nothing else is asked for. The bot user's id equals the application's, as it does
 * for every Discord application created since 2016.
 */
export const DEFAULTS = {
  guildId: snowflakeAt('2021-03-14T12:00:00Z'),
  applicationId: snowflakeAt('2022-06-01T09:30:00Z'),
  botUserId: snowflakeAt('2022-06-01T09:30:00Z'),
  ownerId: snowflakeAt('2017-08-20T18:00:00Z'),
  moderatorRoleId: snowflakeAt('2021-03-14T12:05:00Z'),
  /** A guild the bot is not in, for "interactions from other guilds are refused" tests. */
  foreignGuildId: snowflakeAt('2020-11-02T08:00:00Z'),
  token: 'MTAwMDAwMDAwMDAwMDAwMDAw.Gstand.in-bot-token-for-tests-only',
  botUsername: 'Vote Review Bot',
  /** The application's OAuth2 client secret (the dashboard's DISCORD_CLIENT_SECRET). */
  clientSecret: 'stand-in-client-secret-for-tests-only',
} as const;

/** The text channel of a guild: one millisecond of snowflake time after the guild itself. */
export function textChannelIdFor(guildId: string): string {
  return (BigInt(guildId) + (1n << 22n)).toString();
}

/** A plain "Voter" role below the bot's role, for VOTER_ROLE_ID. */
export function voterRoleIdFor(guildId: string): string {
  return (BigInt(guildId) + (4n << 22n)).toString();
}

/** The "Moderator" role of a guild besides the configured one (whose id is an option). */
export function moderatorRoleIdFor(guildId: string): string {
  return (BigInt(guildId) + (3n << 22n)).toString();
}

/** The name of the bot's `index`th guild (0: the configured one). */
export function guildNameFor(index: number): string {
  return index === 0 ? 'Stand-in Guild' : `Other Guild ${index}`;
}

/** The managed role Discord gives a bot when it joins a guild. */
export function botRoleIdFor(guildId: string): string {
  return (BigInt(guildId) + (2n << 22n)).toString();
}

export function userPayload(id: string, username: string, bot = false): UserPayload {
  return {
    id,
    username,
    global_name: bot ? null : username,
    discriminator: bot ? '0000' : '0',
    avatar: null,
    ...(bot ? { bot: true } : {}),
    public_flags: 0,
    flags: 0,
    banner: null,
    accent_color: null,
    avatar_decoration_data: null,
    collectibles: null,
    primary_guild: null,
  };
}

export function rolePayload(
  id: string,
  name: string,
  position: number,
  permissions: bigint,
  extra: Partial<RolePayload> = {},
): RolePayload {
  return {
    id,
    name,
    description: null,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position,
    permissions: permissions.toString(),
    managed: false,
    mentionable: false,
    flags: 0,
    ...extra,
  };
}

export function textChannelPayload(guildId: string, withGuildId = true): ChannelPayload {
  return {
    id: textChannelIdFor(guildId),
    type: 0,
    ...(withGuildId ? { guild_id: guildId } : {}),
    name: 'general',
    position: 0,
    permission_overwrites: [],
    nsfw: false,
    topic: null,
    last_message_id: null,
    rate_limit_per_user: 0,
    parent_id: null,
    flags: 0,
  };
}

export function memberPayload(
  user: UserPayload,
  roles: string[],
  permissions: bigint | string,
  joinedAt: string,
): MemberPayload {
  return {
    user,
    roles,
    permissions: permissions.toString(),
    nick: null,
    avatar: null,
    banner: null,
    joined_at: joinedAt,
    premium_since: null,
    deaf: false,
    mute: false,
    pending: false,
    flags: 0,
    communication_disabled_until: null,
    unusual_dm_activity_until: null,
  };
}

export interface GuildSetup {
  id: string;
  name: string;
  botUser: UserPayload;
  roles: RolePayload[];
}

/** The roles a guild starts with: @everyone (id = guild id), Voter, Moderator, the bot's managed role. */
export function defaultRoles(guildId: string, botUserId: string, moderatorRoleId: string): RolePayload[] {
  return [
    rolePayload(guildId, '@everyone', 0, MEMBER_PERMISSIONS),
    rolePayload(voterRoleIdFor(guildId), 'Voter', 1, 0n),
    rolePayload(moderatorRoleId, 'Moderator', 1, MODERATOR_ROLE_PERMISSIONS, { hoist: true, mentionable: true }),
    rolePayload(botRoleIdFor(guildId), DEFAULTS.botUsername, 2, BOT_PERMISSIONS, {
      managed: true,
      tags: { bot_id: botUserId },
    }),
  ];
}

/** A GUILD_CREATE payload with everything discord.js reads from one. */
export function guildCreatePayload(guild: GuildSetup, joinedAt: string): Record<string, unknown> {
  const channel = textChannelPayload(guild.id, false);
  // Members in GUILD_CREATE carry no `permissions`: only interaction members do.
  const { permissions: _permissions, ...botMember } = memberPayload(
    guild.botUser,
    [botRoleIdFor(guild.id)],
    BOT_PERMISSIONS,
    joinedAt,
  );
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    icon_hash: null,
    splash: null,
    discovery_splash: null,
    banner: null,
    description: null,
    owner_id: DEFAULTS.ownerId,
    region: 'deprecated',
    afk_channel_id: null,
    afk_timeout: 300,
    widget_enabled: false,
    widget_channel_id: null,
    verification_level: 1,
    default_message_notifications: 1,
    explicit_content_filter: 2,
    roles: guild.roles,
    emojis: [],
    stickers: [],
    features: [],
    mfa_level: 0,
    application_id: null,
    system_channel_id: channel.id,
    system_channel_flags: 0,
    rules_channel_id: null,
    public_updates_channel_id: null,
    safety_alerts_channel_id: null,
    max_presences: null,
    max_members: 500000,
    vanity_url_code: null,
    premium_tier: 0,
    premium_subscription_count: 0,
    premium_progress_bar_enabled: false,
    preferred_locale: 'en-US',
    max_video_channel_users: 25,
    max_stage_video_channel_users: 50,
    nsfw: false,
    nsfw_level: 0,
    hub_type: null,
    incidents_data: null,
    home_header: null,
    latest_onboarding_question_id: null,
    version: Date.now(),
    joined_at: joinedAt,
    large: false,
    lazy: true,
    unavailable: false,
    member_count: 42,
    voice_states: [],
    members: [botMember],
    channels: [channel],
    threads: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
    embedded_activities: [],
    activity_instances: [],
  };
}

export const BOT_APP_PERMISSIONS = BOT_PERMISSIONS.toString();
