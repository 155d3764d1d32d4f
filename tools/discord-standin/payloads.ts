import { randomBytes } from 'node:crypto';
import {
  BOT_APP_PERMISSIONS,
  DEFAULTS,
  MEMBER_PERMISSIONS,
  memberPayload,
  rolePayload,
  textChannelPayload,
  userPayload,
} from './fixtures.js';
import { nextSnowflake } from './snowflake.js';
import type {
  DirectMessageChannelPayload,
  InteractionPayload,
  MemberPayload,
  Message,
  RolePayload,
  UserPayload,
} from './types.js';

/* Builders for INTERACTION_CREATE payloads as Discord sends them to a bot in a guild. Every field
 * discord.js reads is present: without `entitlements`, `authorizing_integration_owners`,
 * `member.user` or `data`, discord.js throws inside its gateway handler and the process dies. */

export const InteractionType = { ApplicationCommand: 2, MessageComponent: 3, ModalSubmit: 5 } as const;
export const OptionType = {
  Subcommand: 1,
  SubcommandGroup: 2,
  String: 3,
  Integer: 4,
  Boolean: 5,
  User: 6,
  Channel: 7,
  Role: 8,
  Mentionable: 9,
  Number: 10,
  Attachment: 11,
} as const;

export interface MemberOptions {
  id?: string;
  username?: string;
  roles?: string[];
  /** The member's permissions in the channel; defaults to an ordinary member's (no Manage Server). */
  permissions?: bigint | string;
  nick?: string;
}

/** A guild member as an interaction carries it, `permissions` included. */
export function member(options: MemberOptions = {}): MemberPayload {
  const id = options.id ?? nextSnowflake();
  const user = userPayload(id, options.username ?? `member_${id.slice(-4)}`);
  const payload = memberPayload(
    user,
    options.roles ?? [],
    options.permissions ?? MEMBER_PERMISSIONS,
    '2023-05-04T10:20:30.000000+00:00',
  );
  if (options.nick !== undefined) payload.nick = options.nick;
  return payload;
}

interface Where {
  guildId?: string;
  channelId?: string;
  applicationId?: string;
  /** The member's client language, as Discord sends it (`en-US` unless set). */
  locale?: string;
  /** The server's language (`guild_locale`, `en-US` unless set). */
  guildLocale?: string;
  /** Sent in the member's DM with the bot: no guild and no member, only the user (context BOT_DM). */
  directMessage?: boolean;
}

function interactionToken(id: string): string {
  return Buffer.from(`interaction:${id}:${randomBytes(48).toString('base64url')}`).toString('base64url');
}

function envelope(type: number, data: unknown, who: MemberPayload, where: Where): InteractionPayload {
  if (where.directMessage) return inDirectMessage(envelope(type, data, who, { ...where, directMessage: false }), who);
  const id = nextSnowflake();
  const guildId = where.guildId ?? DEFAULTS.guildId;
  const channel = textChannelPayload(guildId);
  if (where.channelId !== undefined) channel.id = where.channelId;
  channel.permissions = who.permissions;
  return {
    id,
    application_id: where.applicationId ?? DEFAULTS.applicationId,
    type,
    token: interactionToken(id),
    version: 1,
    data,
    guild_id: guildId,
    guild: { id: guildId, locale: where.guildLocale ?? 'en-US', features: [] },
    channel,
    channel_id: channel.id,
    member: who,
    app_permissions: BOT_APP_PERMISSIONS,
    locale: where.locale ?? 'en-US',
    guild_locale: where.guildLocale ?? 'en-US',
    entitlements: [],
    authorizing_integration_owners: { '0': guildId },
    context: 0,
    attachment_size_limit: 10_485_760,
  };
}

function inDirectMessage(payload: InteractionPayload, who: MemberPayload): InteractionPayload {
  const { guild_id: _guildId, guild: _guild, guild_locale: _guildLocale, member: _member, ...rest } = payload;
  const { guild_id: _dataGuildId, ...data } = (payload.data ?? {}) as Record<string, unknown>;
  const channel: DirectMessageChannelPayload = {
    id: nextSnowflake(),
    type: 1,
    last_message_id: null,
    flags: 0,
    recipients: [who.user],
  };
  return {
    ...rest,
    data,
    channel,
    channel_id: channel.id,
    user: who.user,
    // A guild-installed app's owner in a DM with the bot is "0", as Discord sends it.
    authorizing_integration_owners: { '0': '0' },
    context: 1,
  };
}

export interface CommandOption {
  name: string;
  type: number;
  value?: string | number | boolean;
  options?: CommandOption[];
  focused?: boolean;
}

export interface SlashCommandOptions extends Where {
  name: string;
  options?: CommandOption[];
  member?: MemberPayload;
  /** Members (from member()) or plain users (not in the guild) that user options point at. */
  resolvedUsers?: Array<MemberPayload | UserPayload>;
  /** The guild's roles that role options point at (default: a plain role with that id). */
  resolvedRoles?: RolePayload[];
  /** The registered command's id; the stand-in fills it in from its registrations when it knows the name. */
  commandId?: string;
}

function userOptionIds(options: CommandOption[] | undefined): string[] {
  if (!options) return [];
  return options.flatMap((option) =>
    option.type === OptionType.User || option.type === OptionType.Mentionable
      ? typeof option.value === 'string'
        ? [option.value]
        : []
      : userOptionIds(option.options),
  );
}

/** A chat-input command. A USER option also fills `data.resolved.users` and `data.resolved.members`. */
export function slashCommand(options: SlashCommandOptions): InteractionPayload {
  const who = options.member ?? member();
  const guildId = options.guildId ?? DEFAULTS.guildId;
  const data: Record<string, unknown> = {
    id: options.commandId ?? nextSnowflake(),
    name: options.name,
    type: 1,
    guild_id: guildId,
  };
  if (options.options?.length) data.options = options.options;

  const ids = userOptionIds(options.options);
  if (ids.length > 0) {
    const users: Record<string, UserPayload> = {};
    const members: Record<string, Omit<MemberPayload, 'user'>> = {};
    for (const id of ids) {
      const given = options.resolvedUsers?.find((entry) => ('user' in entry ? entry.user.id : entry.id) === id);
      if (given && !('user' in given)) {
        users[id] = given;
        continue;
      }
      const { user, ...rest } = given ?? member({ id });
      users[id] = user;
      members[id] = rest;
    }
    data.resolved = Object.keys(members).length > 0 ? { users, members } : { users };
  }
  const channels = optionValues(options.options, OptionType.Channel);
  const roles = optionValues(options.options, OptionType.Role);
  if (channels.length > 0 || roles.length > 0) {
    const resolved = (data.resolved ?? {}) as Record<string, unknown>;
    // A channel option resolves to the channel with the bot's permissions there; a role option to the guild's role.
    if (channels.length > 0)
      resolved.channels = Object.fromEntries(
        channels.map((id) => [id, { id, type: 0, name: 'general', parent_id: null, permissions: BOT_APP_PERMISSIONS }]),
      );
    if (roles.length > 0)
      resolved.roles = Object.fromEntries(
        roles.map((id) => [
          id,
          options.resolvedRoles?.find((role) => role.id === id) ?? rolePayload(id, `role_${id.slice(-4)}`, 1, 0n),
        ]),
      );
    data.resolved = resolved;
  }
  return envelope(InteractionType.ApplicationCommand, data, who, { ...options, guildId });
}

function optionValues(options: CommandOption[] | undefined, type: number): string[] {
  if (!options) return [];
  return options.flatMap((option) =>
    option.type === type && typeof option.value === 'string' ? [option.value] : optionValues(option.options, type),
  );
}

export interface ButtonClickOptions extends Where {
  customId: string;
  /** The message the button is on: one the bot sent (`handle.message()`, `channelMessages()`). */
  message: Message;
  member?: MemberPayload;
}

function onMessage(message: Message, where: Where): Where {
  return {
    ...where,
    guildId: where.guildId ?? message.guild_id ?? DEFAULTS.guildId,
    channelId: where.channelId ?? message.channel_id,
  };
}

export function buttonClick(options: ButtonClickOptions): InteractionPayload {
  const payload = envelope(
    InteractionType.MessageComponent,
    { custom_id: options.customId, component_type: 2 },
    options.member ?? member(),
    onMessage(options.message, options),
  );
  payload.message = structuredClone(options.message);
  return payload;
}

export interface SelectMenuOptions extends ButtonClickOptions {
  values: string[];
}

/** A string select on a message (component type 3). */
export function stringSelect(options: SelectMenuOptions): InteractionPayload {
  const payload = envelope(
    InteractionType.MessageComponent,
    { custom_id: options.customId, component_type: 3, values: options.values },
    options.member ?? member(),
    onMessage(options.message, options),
  );
  payload.message = structuredClone(options.message);
  return payload;
}

export interface ModalSubmitOptions extends Where {
  customId: string;
  /** Text inputs: custom id → value. */
  fields: Record<string, string>;
  /** String selects: custom id → selected values (label shape only, as in Discord). */
  selects?: Record<string, string[]>;
  member?: MemberPayload;
  /** Set when the modal was opened from a button on this message. */
  message?: Message;
  /**
   * `label` (default): each input nested in a type 18 label, as modals built with labels submit.
   * `actionRow`: the legacy shape, text inputs in type 1 action rows.
   */
  shape?: 'label' | 'actionRow';
}

export function modalSubmit(options: ModalSubmitOptions): InteractionPayload {
  const shape = options.shape ?? 'label';
  const selects = Object.entries(options.selects ?? {});
  if (shape === 'actionRow' && selects.length > 0) {
    throw new Error('modalSubmit: selects exist only in label-shaped modals');
  }
  let componentId = 0;
  const components: Array<Record<string, unknown>> = Object.entries(options.fields).map(([customId, value]) => {
    const rowId = ++componentId;
    const input = { type: 4, id: ++componentId, custom_id: customId, value };
    return shape === 'label' ? { type: 18, id: rowId, component: input } : { type: 1, id: rowId, components: [input] };
  });
  for (const [customId, values] of selects) {
    const labelId = ++componentId;
    components.push({ type: 18, id: labelId, component: { type: 3, id: ++componentId, custom_id: customId, values } });
  }

  const where = options.message ? onMessage(options.message, options) : options;
  const payload = envelope(
    InteractionType.ModalSubmit,
    { custom_id: options.customId, components },
    options.member ?? member(),
    where,
  );
  if (options.message) payload.message = structuredClone(options.message);
  return payload;
}
