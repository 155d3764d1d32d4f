import {
  botRoleIdFor,
  DEFAULTS,
  guildCreatePayload,
  memberPayload,
  rolePayload,
  textChannelIdFor,
  textChannelPayload,
  userPayload,
  type GuildSetup,
} from './fixtures.js';
import { appendBounded, BoundedMap, Signal } from './signal.js';
import { nextSnowflake } from './snowflake.js';
import type {
  InteractionPayload,
  MemberPayload,
  Message,
  PermissionOverwrite,
  RecordedRequest,
  RoleChange,
  RolePayload,
  UserPayload,
} from './types.js';
import type { InteractionRecord } from './interaction-record.js';

export const MessageFlag = {
  SuppressEmbeds: 4,
  Ephemeral: 64,
  Loading: 128,
  SuppressNotifications: 4096,
  IsComponentsV2: 32768,
} as const;
const SETTABLE_FLAGS =
  MessageFlag.SuppressEmbeds | MessageFlag.Ephemeral | MessageFlag.SuppressNotifications | MessageFlag.IsComponentsV2;

export interface StoreConfig {
  token: string;
  applicationId: string;
  botUser: UserPayload;
  guildId: string;
  guilds: GuildSetup[];
  maxLog: number;
  interactionDeadlineMs: number;
  joinedAt: string;
}

export interface NewMessage {
  channelId: string;
  guildId?: string;
  data: Record<string, any>;
  type?: number;
  flags?: number;
  interaction?: InteractionRecord;
}

/** Everything the stand-in remembers, bounded by maxLog. */
export class Store {
  readonly requests: RecordedRequest[] = [];
  readonly unknownRoutes: RecordedRequest[] = [];
  readonly messages: BoundedMap<string, Message>;
  readonly interactionsById: BoundedMap<string, InteractionRecord>;
  readonly interactionsByToken: BoundedMap<string, InteractionRecord>;
  readonly members: BoundedMap<string, MemberPayload>;
  private readonly channelLogs = new Map<string, string[]>();
  /** Permission overwrites per channel id, as the channel's settings would hold them. */
  readonly channelOverwrites = new Map<string, PermissionOverwrite[]>();
  /** Registered commands per scope: 'global' or a guild id. */
  readonly commands = new Map<string, Array<Record<string, any>>>();
  readonly changed = new Signal();
  /** Role changes Discord applied, oldest first (bounded by maxLog). */
  readonly roleChanges: RoleChange[] = [];
  /** While set, member role changes are answered 403 Missing Permissions (the bot lacks Manage Roles). */
  refuseRoleChanges = false;
  /** DM channel per user (POST /users/@me/channels), and the users whose DMs are closed to the bot. */
  readonly dmChannels = new Map<string, string>();
  readonly closedDms = new Set<string>();

  constructor(readonly config: StoreConfig) {
    this.messages = new BoundedMap(config.maxLog);
    this.interactionsById = new BoundedMap(config.maxLog);
    this.interactionsByToken = new BoundedMap(config.maxLog);
    this.members = new BoundedMap(config.maxLog);
  }

  record(request: RecordedRequest, unknown: boolean): void {
    appendBounded(this.requests, request, this.config.maxLog);
    if (unknown) appendBounded(this.unknownRoutes, request, this.config.maxLog);
  }

  /** The DM channel with a user, made on first use as Discord does. */
  openDm(userId: string): Record<string, unknown> {
    let id = this.dmChannels.get(userId);
    if (id === undefined) this.dmChannels.set(userId, (id = nextSnowflake()));
    return {
      id,
      type: 1,
      last_message_id: null,
      flags: 0,
      recipients: [userPayload(userId, `user_${userId.slice(-4)}`)],
    };
  }

  /** The user a DM channel is with, if it is one. */
  dmRecipient(channelId: string): string | undefined {
    for (const [userId, id] of this.dmChannels) if (id === channelId) return userId;
    return undefined;
  }

  guild(id: string): GuildSetup | undefined {
    return this.config.guilds.find((guild) => guild.id === id);
  }

  guildOfChannel(channelId: string): GuildSetup | undefined {
    return this.config.guilds.find((guild) => textChannelIdFor(guild.id) === channelId);
  }

  channel(channelId: string): Record<string, unknown> | undefined {
    const guild = this.guildOfChannel(channelId);
    return (
      guild && {
        ...textChannelPayload(guild.id),
        permission_overwrites: this.channelOverwrites.get(channelId) ?? [],
        last_message_id: this.channelLogs.get(channelId)?.at(-1) ?? null,
      }
    );
  }

  guildCreate(guild: GuildSetup): Record<string, unknown> {
    const payload = guildCreatePayload(guild, this.config.joinedAt);
    const channels = (payload.channels as Array<{ id: string }>).map((channel) => ({
      ...channel,
      permission_overwrites: this.channelOverwrites.get(channel.id) ?? [],
    }));
    return { ...payload, channels };
  }

  /**
   * Makes the guild agree with a member as Discord would: roles the member claims but the guild
   * lacks are created, and permission bits no role explains get a role that grants them (discord.js
   * computes `GuildMember#permissions` from cached roles, `memberPermissions` from the payload;
   * on Discord both come from roles). Returns the member to send and the roles to announce.
   */
  reconcileMember(guildId: string, member: MemberPayload): { member: MemberPayload; created: RolePayload[] } {
    const guild = this.guild(guildId);
    if (!guild) return { member, created: [] };
    const created: RolePayload[] = [];
    const byId = new Map(guild.roles.map((role) => [role.id, role]));
    for (const id of member.roles) {
      if (byId.has(id)) continue;
      const role = rolePayload(id, `role-${id.slice(-4)}`, guild.roles.length, 0n);
      guild.roles.push(role);
      byId.set(id, role);
      created.push(role);
    }
    let granted = BigInt(byId.get(guild.id)?.permissions ?? '0');
    for (const id of member.roles) granted |= BigInt(byId.get(id)?.permissions ?? '0');
    const missing = BigInt(member.permissions) & ~granted;
    if (missing === 0n) return { member, created };
    let role = guild.roles.find((r) => r.name === `granted-${missing}`);
    if (!role) {
      role = rolePayload(nextSnowflake(), `granted-${missing}`, guild.roles.length, missing);
      guild.roles.push(role);
      created.push(role);
    }
    return { member: { ...member, roles: [...member.roles, role.id] }, created };
  }

  /** Gives or takes a role of a known member; false when the member is unknown. */
  changeMemberRole(change: Omit<RoleChange, 'at'>, at: number): boolean {
    const key = `${change.guildId}:${change.userId}`;
    const known = this.members.get(key);
    if (!known) return false;
    const roles = known.roles.filter((id) => id !== change.roleId);
    if (change.change === 'add') roles.push(change.roleId);
    this.members.set(key, { ...known, roles });
    appendBounded(this.roleChanges, { ...change, at }, this.config.maxLog);
    this.changed.notify();
    return true;
  }

  rememberMember(guildId: string, member: MemberPayload): void {
    this.members.set(`${guildId}:${member.user.id}`, member);
  }

  member(guildId: string, userId: string): Omit<MemberPayload, 'permissions'> | undefined {
    if (userId === this.config.botUser.id && this.guild(guildId)) {
      const { permissions: _p, ...bot } = memberPayload(
        this.config.botUser,
        [botRoleIdFor(guildId)],
        0n,
        this.config.joinedAt,
      );
      return bot;
    }
    const known = this.members.get(`${guildId}:${userId}`);
    // The owner is a member of every guild, with no roles unless a test gave some.
    if (!known && userId === DEFAULTS.ownerId && this.guild(guildId)) {
      const { permissions: _p, ...owner } = memberPayload(
        userPayload(userId, 'Stand-in Owner'),
        [],
        0n,
        this.config.joinedAt,
      );
      return owner;
    }
    if (!known) return undefined;
    const { permissions: _p, ...rest } = known;
    return rest;
  }

  registerInteraction(record: InteractionRecord): void {
    this.interactionsById.set(record.id, record);
    this.interactionsByToken.set(record.token, record);
  }

  createMessage({ channelId, guildId, data, type = 0, flags, interaction }: NewMessage): Message {
    const id = nextSnowflake();
    const message: Message = {
      id,
      type,
      channel_id: channelId,
      ...(guildId ? { guild_id: guildId } : {}),
      author: this.config.botUser,
      content: '',
      embeds: [],
      components: [],
      attachments: [],
      mentions: [],
      mention_roles: [],
      mention_everyone: false,
      pinned: false,
      tts: Boolean(data.tts),
      timestamp: new Date().toISOString().replace('Z', '000+00:00'),
      edited_timestamp: null,
      flags: flags ?? Number(data.flags ?? 0) & SETTABLE_FLAGS,
    };
    if (interaction) {
      const payload = interaction.payload;
      const user = payload.member?.user ?? payload.user;
      message.webhook_id = this.config.applicationId;
      message.application_id = this.config.applicationId;
      if (user) {
        message.interaction_metadata = {
          id: payload.id,
          type: payload.type,
          user,
          authorizing_integration_owners: payload.authorizing_integration_owners,
          ...(payload.type === 2 ? { name: payload.data?.name, command_type: payload.data?.type ?? 1 } : {}),
          ...(payload.message ? { interacted_message_id: payload.message.id } : {}),
        };
      }
    }
    applyMessageData(message, data, false);
    this.messages.set(id, message);
    return message;
  }

  readonly #nonces = new Map<string, { messageId: string; at: number }>();

  /** Discord keeps a nonce for a few minutes; the stand-in keeps it 10. */
  messageByNonce(channelId: string, nonce: string): Message | undefined {
    const known = this.#nonces.get(`${channelId}:${nonce}`);
    if (!known || Date.now() - known.at > 600_000) return undefined;
    return this.messages.get(known.messageId);
  }

  rememberNonce(channelId: string, nonce: string, messageId: string): void {
    this.#nonces.set(`${channelId}:${nonce}`, { messageId, at: Date.now() });
  }

  /** A message the bot posted in a channel (POST /channels/{id}/messages). */
  postToChannel(message: Message): void {
    let log = this.channelLogs.get(message.channel_id);
    if (!log) this.channelLogs.set(message.channel_id, (log = []));
    appendBounded(log, message.id, this.config.maxLog);
  }

  channelMessages(channelId: string): Message[] {
    const ids = this.channelLogs.get(channelId) ?? [];
    const out: Message[] = [];
    for (const id of ids) {
      const message = this.messages.get(id);
      if (message) out.push(message);
    }
    return out;
  }

  /** Keeps a message a test made up (a button click on it must still be updatable). */
  adoptMessage(message: Message): Message {
    const known = this.messages.get(message.id);
    if (known) return known;
    const copy = structuredClone(message);
    this.messages.set(copy.id, copy);
    return copy;
  }

  deleteMessage(id: string): void {
    this.messages.delete(id);
  }

  interactionPayloadFixups(payload: InteractionPayload): void {
    payload.application_id = this.config.applicationId;
    if (payload.type === 2 && payload.guild_id) {
      const registered = [...(this.commands.get(payload.guild_id) ?? []), ...(this.commands.get('global') ?? [])].find(
        (command) => command.name === payload.data?.name && (command.type ?? 1) === (payload.data?.type ?? 1),
      );
      if (registered) payload.data.id = registered.id;
    }
  }
}

/** Applies a message body (create or edit) to a stored message, as Discord does. */
/** The bytes the bot uploaded for an attachment of a message, when it sent the file itself. */
export function attachmentBytes(attachment: unknown): Buffer | undefined {
  return (attachment as { [BYTES]?: Buffer } | undefined)?.[BYTES];
}

const BYTES = Symbol('bytes');

/** Kept under a symbol, so the message the stand-in answers with stays plain JSON as Discord's. */
function keepBytes<T extends object>(attachment: T, bytes: unknown): T {
  if (Buffer.isBuffer(bytes)) Object.defineProperty(attachment, BYTES, { value: bytes, enumerable: false });
  return attachment;
}

export function applyMessageData(message: Message, data: Record<string, any>, edit: boolean): void {
  if (typeof data.content === 'string') message.content = data.content;
  if (Array.isArray(data.embeds)) message.embeds = data.embeds.map((embed) => ({ type: 'rich', ...embed }));
  if (Array.isArray(data.components)) message.components = structuredClone(data.components);
  if (Array.isArray(data.attachments)) {
    message.attachments = data.attachments.map((attachment: Record<string, any>) =>
      keepBytes(
        {
          id: nextSnowflake(),
          filename: attachment.filename ?? 'file',
          size: attachment.size ?? 0,
          url: `https://cdn.discordapp.com/attachments/${message.channel_id}/${message.id}/${attachment.filename ?? 'file'}`,
          proxy_url: `https://media.discordapp.net/attachments/${message.channel_id}/${message.id}/${attachment.filename ?? 'file'}`,
          ...(attachment.description ? { description: attachment.description } : {}),
        },
        attachment.bytes,
      ),
    );
  }
  const wasLoading = (message.flags & MessageFlag.Loading) !== 0;
  if (edit) {
    if (data.flags !== undefined && data.flags !== null) {
      const keep = message.flags & (MessageFlag.Ephemeral | MessageFlag.IsComponentsV2);
      message.flags = keep | (Number(data.flags) & (MessageFlag.SuppressEmbeds | MessageFlag.IsComponentsV2));
    }
    message.flags &= ~MessageFlag.Loading;
    if (!wasLoading) message.edited_timestamp = new Date().toISOString().replace('Z', '000+00:00');
  }
}
