/* Wire shapes the stand-in sends and records. Nested message parts (embeds, components) stay
 * loosely typed on purpose: tests read them the way Discord returns them, as plain JSON. */

export interface UserPayload {
  id: string;
  username: string;
  global_name: string | null;
  discriminator: string;
  avatar: string | null;
  bot?: boolean;
  public_flags: number;
  flags: number;
  banner: string | null;
  accent_color: number | null;
  avatar_decoration_data: null;
  collectibles: null;
  primary_guild: null;
}

export interface MemberPayload {
  user: UserPayload;
  roles: string[];
  permissions: string;
  nick: string | null;
  avatar: string | null;
  banner: string | null;
  joined_at: string;
  premium_since: string | null;
  deaf: boolean;
  mute: boolean;
  pending: boolean;
  flags: number;
  communication_disabled_until: string | null;
  unusual_dm_activity_until: string | null;
}

export interface RolePayload {
  id: string;
  name: string;
  description: string | null;
  color: number;
  colors: { primary_color: number; secondary_color: number | null; tertiary_color: number | null };
  hoist: boolean;
  icon: string | null;
  unicode_emoji: string | null;
  position: number;
  permissions: string;
  managed: boolean;
  mentionable: boolean;
  flags: number;
  tags?: { bot_id?: string };
}

/** A channel permission overwrite as Discord sends it: type 0 is a role, 1 a member; bit fields as strings. */
export interface PermissionOverwrite {
  id: string;
  type: 0 | 1;
  allow: string;
  deny: string;
}

export interface ChannelPayload {
  id: string;
  type: number;
  guild_id?: string;
  name: string;
  position: number;
  permission_overwrites: PermissionOverwrite[];
  nsfw: boolean;
  topic: string | null;
  last_message_id: string | null;
  rate_limit_per_user: number;
  parent_id: string | null;
  flags: number;
  permissions?: string;
}

/** The DM between a user and the bot, as an interaction sent there carries it. */
export interface DirectMessageChannelPayload {
  id: string;
  type: 1;
  last_message_id: string | null;
  flags: number;
  recipients: UserPayload[];
}

/** A message as Discord returns it (POST/PATCH responses, `message` on component interactions). */
export interface Message {
  id: string;
  type: number;
  channel_id: string;
  guild_id?: string;
  author: UserPayload;
  content: string;
  embeds: any[];
  components: any[];
  attachments: any[];
  mentions: UserPayload[];
  mention_roles: string[];
  mention_everyone: boolean;
  pinned: boolean;
  tts: boolean;
  timestamp: string;
  edited_timestamp: string | null;
  flags: number;
  position?: number;
  webhook_id?: string;
  application_id?: string;
  interaction_metadata?: {
    id: string;
    type: number;
    user: UserPayload;
    authorizing_integration_owners: Record<string, string>;
    name?: string;
    command_type?: number;
    interacted_message_id?: string;
  };
}

/** The data of a type 9 (modal) callback, as the bot sent it. */
export interface ModalResponse {
  custom_id: string;
  title: string;
  components: any[];
}

/** A role given (PUT) or taken (DELETE) through /guilds/{g}/members/{u}/roles/{r}, as Discord applied it. */
export interface RoleChange {
  change: 'add' | 'remove';
  guildId: string;
  userId: string;
  roleId: string;
  /** X-Audit-Log-Reason, decoded; undefined when none was sent. */
  reason: string | undefined;
  at: number;
}

export interface RecordedRequest {
  method: string;
  /** Decoded, without the `/api/v10` prefix, e.g. `/webhooks/1/tok/messages/@original`. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON (or `payload_json` of a multipart body), the raw string otherwise, or undefined. */
  body: any;
  /** Epoch milliseconds with sub-millisecond precision. */
  at: number;
  /** The status the stand-in answered with. */
  status: number;
}

export interface Callback {
  type: number;
  data: any;
  at: number;
}

export interface RejectedCallback extends Callback {
  status: number;
  code: number;
}

export interface WebhookCall {
  method: string;
  path: string;
  body: any;
  at: number;
  status: number;
}

/** An INTERACTION_CREATE payload. Builders in payloads.ts make complete ones. */
export interface InteractionPayload {
  id: string;
  application_id: string;
  type: number;
  token: string;
  version: 1;
  data: any;
  guild_id?: string;
  guild?: { id: string; locale: string; features: string[] };
  channel?: ChannelPayload | DirectMessageChannelPayload;
  channel_id?: string;
  member?: MemberPayload;
  user?: UserPayload;
  message?: Message;
  app_permissions: string;
  locale: string;
  guild_locale?: string;
  entitlements: unknown[];
  authorizing_integration_owners: Record<string, string>;
  context?: number;
  attachment_size_limit: number;
}

/** A Discord-shaped error body: `{ message, code }` plus `errors` for form errors. */
export interface DiscordErrorBody {
  message: string;
  code: number;
  errors?: Record<string, unknown>;
}
