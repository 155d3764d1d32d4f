// discord-api-types, not discord.js: every test file that starts a stand-in loads this, and discord.js
// costs each about half a second of CPU.
import { InteractionResponseType, InteractionType } from 'discord-api-types/v10';
import { textChannelIdFor } from './fixtures.js';
import { checkCommands, checkMessage, checkModal } from './limits.js';
import type { InteractionRecord } from './interaction-record.js';
import { MessageFlag, type Store, applyMessageData } from './store.js';
import { nextSnowflake } from './snowflake.js';
import type { DiscordErrorBody, Message } from './types.js';

export interface RestRequest {
  method: string;
  /** Decoded path segments after /api/v{n}. */
  segments: string[];
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  at: number;
  /**
   * How long the stand-in's own event loop was held just before it read this request (loop-clock.ts):
   * the request may have arrived any time in it, so a deadline is judged from its start.
   */
  stalledMs?: number;
}

export interface RestResult {
  status: number;
  body?: unknown;
  unknown?: boolean;
}

export interface RestContext {
  store: Store;
  gatewayUrl: string;
  /** Set by setGatewayBotStatus: the status GET /gateway/bot answers with, whatever the token. */
  gatewayBotStatus: number | null;
  /** What GET /gateway/bot recommends: the shard count and identify concurrency. */
  gatewayBot: { shards: number; maxConcurrency: number };
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

const error = (status: number, message: string, code: number): RestResult => ({ status, body: { message, code } });
const invalid = (body: DiscordErrorBody): RestResult => ({ status: 400, body });
const plain = (status: number): RestResult => error(status, `${status}: ${STATUS_TEXT[status] ?? 'Error'}`, 0);

export const NOT_FOUND: RestResult = { ...plain(404), unknown: true };
const UNKNOWN_INTERACTION = error(404, 'Unknown interaction', 10062);
const ALREADY_ACKNOWLEDGED = error(400, 'Interaction has already been acknowledged.', 40060);
const UNKNOWN_WEBHOOK = error(404, 'Unknown Webhook', 10015);
const UNKNOWN_MESSAGE = error(404, 'Unknown Message', 10008);
const UNKNOWN_CHANNEL = error(404, 'Unknown Channel', 10003);
const UNKNOWN_GUILD = error(404, 'Unknown Guild', 10004);
const UNKNOWN_MEMBER = error(404, 'Unknown Member', 10007);
const MISSING_ACCESS = error(403, 'Missing Access', 50001);
const MISSING_PERMISSIONS = error(403, 'Missing Permissions', 50013);
const UNKNOWN_ROLE = error(404, 'Unknown Role', 10011);
const INVALID_WEBHOOK_TOKEN = error(401, 'Invalid Webhook Token', 50027);
const CANNOT_MESSAGE_USER = error(403, 'Cannot send messages to this user', 50007);

function invalidCallbackType(type: unknown): RestResult {
  return invalid({
    message: 'Invalid Form Body',
    code: 50035,
    errors: {
      type: {
        _errors: [
          {
            code: 'INTERACTION_RESPONSE_TYPE_INVALID',
            message: `Interaction response type ${String(type)} is not valid for this interaction.`,
          },
        ],
      },
    },
  });
}

function authorized(token: string, request: RestRequest): boolean {
  return request.headers.authorization === `Bot ${token}`;
}

const Callback = {
  Reply: InteractionResponseType.ChannelMessageWithSource,
  DeferredReply: InteractionResponseType.DeferredChannelMessageWithSource,
  DeferredUpdate: InteractionResponseType.DeferredMessageUpdate,
  Update: InteractionResponseType.UpdateMessage,
  Modal: InteractionResponseType.Modal,
} as const;

type Handler = (ctx: RestContext & { config: Store['config'] }, request: RestRequest) => RestResult | undefined;

export function handleRest(context: RestContext, request: RestRequest): RestResult {
  const ctx = { ...context, config: context.store.config };
  const [root] = request.segments;
  const handler: Handler | undefined =
    root === 'interactions'
      ? interactionCallback
      : root === 'webhooks'
        ? webhook
        : root === 'gateway'
          ? gateway
          : undefined;
  if (handler) return handler(ctx, request) ?? NOT_FOUND;
  if (!authorized(ctx.config.token, request)) {
    const known = root === 'channels' || root === 'applications' || root === 'users' || root === 'guilds';
    return known ? plain(401) : NOT_FOUND;
  }
  const bot =
    root === 'channels'
      ? channels
      : root === 'applications'
        ? applications
        : root === 'users'
          ? users
          : root === 'guilds'
            ? guilds
            : undefined;
  return bot?.(ctx, request) ?? NOT_FOUND;
}

const gateway: Handler = (ctx, request) => {
  const { method, segments } = request;
  if (method !== 'GET') return undefined;
  if (segments.length === 1) return { status: 200, body: { url: ctx.gatewayUrl } };
  if (segments.length !== 2 || segments[1] !== 'bot') return undefined;
  if (ctx.gatewayBotStatus !== null) return plain(ctx.gatewayBotStatus);
  if (!authorized(ctx.config.token, request)) return plain(401);
  return {
    status: 200,
    body: {
      url: ctx.gatewayUrl,
      shards: ctx.gatewayBot.shards,
      session_start_limit: {
        total: 1000,
        remaining: 999,
        reset_after: 86_400_000,
        max_concurrency: ctx.gatewayBot.maxConcurrency,
      },
    },
  };
};

function messageTypeFor(record: InteractionRecord): number {
  return record.payload.type === 2 ? 20 : 0;
}

function callbackResult(
  record: InteractionRecord,
  type: number,
  withResponse: boolean,
  message: Message | undefined,
): RestResult {
  if (!withResponse) return { status: 204 };
  return {
    status: 200,
    body: {
      interaction: {
        id: record.id,
        type: record.payload.type,
        ...(message
          ? {
              response_message_id: message.id,
              response_message_loading: (message.flags & MessageFlag.Loading) !== 0,
              response_message_ephemeral: (message.flags & MessageFlag.Ephemeral) !== 0,
            }
          : {}),
      },
      resource: { type, ...(message ? { message } : {}) },
    },
  };
}

/** POST /interactions/{id}/{token}/callback */
const interactionCallback: Handler = (ctx, request) => {
  const { segments, method, body, at, stalledMs = 0 } = request;
  if (method !== 'POST' || segments.length !== 4 || segments[3] !== 'callback') return undefined;
  const record = ctx.store.interactionsById.get(segments[1]!);
  if (!record) return UNKNOWN_INTERACTION;
  if (record.token !== segments[2]) return INVALID_WEBHOOK_TOKEN;

  const type = body?.type;
  const data = body?.data;
  const reject = (result: RestResult): RestResult => {
    const code = (result.body as DiscordErrorBody).code;
    record.rejectedCallbacks.push({ type, data, at, status: result.status, code });
    record.changed();
    return result;
  };
  if (record.acknowledged) return reject(ALREADY_ACKNOWLEDGED);
  // The stand-in's own stall (a test's 50 MB answer serialized in the same process) is not the bot's lateness.
  if (Number.isNaN(record.sentAt) || at - stalledMs - record.sentAt > ctx.config.interactionDeadlineMs)
    return reject(UNKNOWN_INTERACTION);

  const kind = record.payload.type;
  const onMessage = record.payload.message !== undefined;
  const allowed =
    type === Callback.Reply ||
    type === Callback.DeferredReply ||
    ((type === Callback.DeferredUpdate || type === Callback.Update) && onMessage) ||
    (type === Callback.Modal && kind !== InteractionType.ModalSubmit);
  if (!allowed) return reject(invalidCallbackType(type));

  const problem =
    type === Callback.Reply
      ? checkMessage(data, ['data'], true)
      : type === Callback.Update
        ? checkMessage(data, ['data'], false)
        : type === Callback.Modal
          ? checkModal(data)
          : null;
  if (problem) return reject(invalid(problem));

  record.callbacks.push({ type, data, at });
  const where = {
    channelId: record.payload.channel?.id ?? record.payload.channel_id ?? '',
    guildId: record.payload.guild_id,
  };
  let message: Message | undefined;
  if (type === Callback.Reply) {
    message = ctx.store.createMessage({
      ...where,
      data: data ?? {},
      type: messageTypeFor(record),
      interaction: record,
    });
    record.originalId = record.answerId = message.id;
  } else if (type === Callback.DeferredReply) {
    const flags = (Number(data?.flags ?? 0) & MessageFlag.Ephemeral) | MessageFlag.Loading;
    message = ctx.store.createMessage({ ...where, data: {}, type: messageTypeFor(record), flags, interaction: record });
    record.originalId = message.id;
  } else if (type === Callback.DeferredUpdate || type === Callback.Update) {
    message = ctx.store.adoptMessage(record.payload.message!);
    record.originalId = message.id;
    if (type === Callback.Update) {
      applyMessageData(message, data ?? {}, true);
      record.answerId = message.id;
    }
  } else {
    record.modalData = data;
  }
  record.changed();
  return callbackResult(
    record,
    type,
    request.query.with_response === 'true',
    type === Callback.DeferredUpdate ? undefined : message,
  );
};

function webhookMessage(record: InteractionRecord, id: string | undefined, store: Store): Message | undefined {
  if (id === '@original') return record.originalId === undefined ? undefined : store.messages.get(record.originalId);
  if (id === undefined || (id !== record.originalId && !record.followUpIds.includes(id))) return undefined;
  return store.messages.get(id);
}

/** /webhooks/{app}/{token}[/messages/{id}] for interaction tokens. */
const webhook: Handler = (ctx, request) => {
  const { segments, method, body, at } = request;
  const [, app, token, messages, messageId] = segments;
  const isMessageRoute = segments.length === 5 && messages === 'messages';
  if (!(segments.length === 3 || isMessageRoute) || token === undefined) return undefined;
  if (!isMessageRoute && method !== 'POST') return undefined;
  if (isMessageRoute && method !== 'GET' && method !== 'PATCH' && method !== 'DELETE') return undefined;

  const record = ctx.store.interactionsByToken.get(token);
  const result = ((): RestResult => {
    if (!record || app !== ctx.config.applicationId || !record.acknowledged) return UNKNOWN_WEBHOOK;
    if (!isMessageRoute) return followUp(ctx, record, request);
    const message = webhookMessage(record, messageId, ctx.store);
    if (!message) return UNKNOWN_MESSAGE;
    if (method === 'GET') return { status: 200, body: message };
    if (method === 'DELETE') {
      ctx.store.deleteMessage(message.id);
      return { status: 204 };
    }
    const problem = checkMessage(body, [], false);
    if (problem) return invalid(problem);
    applyMessageData(message, body ?? {}, true);
    if (messageId === '@original' || message.id === record.originalId) record.answerId ??= message.id;
    return { status: 200, body: message };
  })();
  if (record) {
    record.webhookCalls.push({ method, path: request.path, body, at, status: result.status });
    record.changed();
  }
  return result;
};

function followUp(
  ctx: RestContext & { config: Store['config'] },
  record: InteractionRecord,
  request: RestRequest,
): RestResult {
  const body = request.body ?? {};
  const problem = checkMessage(body, [], true);
  if (problem) return invalid(problem);
  const original = record.originalId === undefined ? undefined : ctx.store.messages.get(record.originalId);
  let message: Message;
  if (original && (original.flags & MessageFlag.Loading) !== 0) {
    // The first follow-up after a deferred reply fills the "thinking…" message, keeping its ephemerality.
    applyMessageData(original, body, true);
    message = original;
  } else {
    const where = {
      channelId: record.payload.channel?.id ?? record.payload.channel_id ?? '',
      guildId: record.payload.guild_id,
    };
    message = ctx.store.createMessage({ ...where, data: body, interaction: record });
    record.followUpIds.push(message.id);
  }
  record.answerId ??= message.id;
  return request.query.wait === 'true' ? { status: 200, body: message } : { status: 204 };
}

/** /channels/{id}[/messages[/{id}]] */
const channels: Handler = (ctx, { segments, method, body }) => {
  const [, channelId, messages, messageId] = segments;
  const channel = channelId === undefined ? undefined : ctx.store.channel(channelId);
  if (segments.length === 2 && method === 'GET') return channel ? { status: 200, body: channel } : UNKNOWN_CHANNEL;
  if (messages !== 'messages' || segments.length < 3 || segments.length > 4) return undefined;
  const recipient = ctx.store.dmRecipient(channelId!);
  if (recipient !== undefined) return directMessage(ctx, channelId!, recipient, { segments, method, body });
  const guild = ctx.store.guildOfChannel(channelId!);
  if (!guild) return UNKNOWN_CHANNEL;

  if (segments.length === 3) {
    if (method !== 'POST') return undefined;
    const problem = checkMessage(body, [], true);
    if (problem) return invalid(problem);
    // Discord's enforce_nonce: the same nonce again within minutes returns the message it made.
    const nonce = body?.enforce_nonce === true && typeof body?.nonce === 'string' ? body.nonce : undefined;
    const earlier = nonce === undefined ? undefined : ctx.store.messageByNonce(channelId!, nonce);
    if (earlier) return { status: 200, body: earlier };
    const type = body?.message_reference ? 19 : 0;
    const { nonce: _nonce, enforce_nonce: _enforce, ...data } = body ?? {};
    const message = ctx.store.createMessage({ channelId: channelId!, guildId: guild.id, data, type });
    if (nonce !== undefined) ctx.store.rememberNonce(channelId!, nonce, message.id);
    ctx.store.postToChannel(message);
    ctx.store.changed.notify();
    return { status: 200, body: message };
  }
  if (method !== 'GET' && method !== 'PATCH' && method !== 'DELETE') return undefined;
  const message = ctx.store.messages.get(messageId!);
  if (!message || message.channel_id !== channelId || (message.flags & MessageFlag.Ephemeral) !== 0)
    return UNKNOWN_MESSAGE;
  if (method === 'GET') return { status: 200, body: message };
  if (method === 'DELETE') {
    ctx.store.deleteMessage(message.id);
    ctx.store.changed.notify();
    return { status: 204 };
  }
  const problem = checkMessage(body, [], false);
  if (problem) return invalid(problem);
  applyMessageData(message, body ?? {}, true);
  ctx.store.changed.notify();
  return { status: 200, body: message };
};

/** POST /channels/{dm}/messages: 50007 when the user's DMs are closed to the bot. */
function directMessage(
  ctx: RestContext,
  channelId: string,
  recipient: string,
  { segments, method, body }: Pick<RestRequest, 'segments' | 'method' | 'body'>,
): RestResult | undefined {
  if (segments.length !== 3 || method !== 'POST') return undefined;
  if (ctx.store.closedDms.has(recipient)) return CANNOT_MESSAGE_USER;
  const problem = checkMessage(body, [], true);
  if (problem) return invalid(problem);
  const message = ctx.store.createMessage({ channelId, data: body ?? {} });
  ctx.store.postToChannel(message);
  ctx.store.changed.notify();
  return { status: 200, body: message };
}

function registerCommands(ctx: RestContext & { config: Store['config'] }, scope: string, body: unknown): RestResult {
  const problem = checkCommands(body);
  if (problem) return invalid(problem);
  const previous = ctx.store.commands.get(scope) ?? [];
  const commands = (body as Array<Record<string, any>>).map((command) => {
    const type = command.type ?? 1;
    const kept = previous.find((old) => old.name === command.name && old.type === type);
    return {
      id: kept?.id ?? nextSnowflake(),
      application_id: ctx.config.applicationId,
      version: nextSnowflake(),
      default_member_permissions: null,
      type,
      name: command.name,
      name_localizations: null,
      description: command.description ?? '',
      description_localizations: null,
      ...(scope === 'global' ? {} : { guild_id: scope }),
      dm_permission: true,
      contexts: null,
      integration_types: [0],
      nsfw: false,
      ...command,
    };
  });
  ctx.store.commands.set(scope, commands);
  ctx.store.changed.notify();
  return { status: 200, body: commands };
}

/** /applications/@me and /applications/{app}[/guilds/{guild}]/commands */
const applications: Handler = (ctx, { segments, method, body }) => {
  const [, app, third, guildId, fifth] = segments;
  if (app === '@me' && segments.length === 2 && method === 'GET') {
    return {
      status: 200,
      body: {
        id: ctx.config.applicationId,
        name: ctx.config.botUser.username,
        icon: null,
        description: '',
        summary: '',
        type: null,
        bot: ctx.config.botUser,
        bot_public: true,
        bot_require_code_grant: false,
        verify_key: '0'.repeat(64),
        flags: 8_421_376,
        owner: { id: '0', username: 'owner', discriminator: '0', global_name: null, avatar: null },
        team: null,
        approximate_guild_count: ctx.config.guilds.length,
        install_params: null,
        integration_types_config: { '0': {} },
        interactions_endpoint_url: null,
        redirect_uris: [],
        tags: [],
      },
    };
  }
  const scope =
    segments.length === 3 && third === 'commands'
      ? 'global'
      : segments.length === 5 && third === 'guilds' && fifth === 'commands'
        ? guildId
        : undefined;
  if (scope === undefined) return undefined;
  if (app !== ctx.config.applicationId) return MISSING_ACCESS;
  if (scope !== 'global' && !ctx.store.guild(scope)) return MISSING_ACCESS;
  if (method === 'GET') return { status: 200, body: ctx.store.commands.get(scope) ?? [] };
  if (method === 'PUT') return registerCommands(ctx, scope, body);
  return undefined;
};

/** GET /users/@me and /users/@me/guilds; POST /users/@me/channels { recipient_id } opens (or finds) a DM channel. */
const users: Handler = (ctx, { segments, method, body }) => {
  if (segments[1] !== '@me') return undefined;
  if (method === 'GET' && segments.length === 2)
    return {
      status: 200,
      body: { ...ctx.config.botUser, verified: true, mfa_enabled: false, locale: 'en-US', email: null },
    };
  // The bot's own servers, as a process without the gateway lists them (client.guilds.fetch()).
  if (method === 'GET' && segments.length === 3 && segments[2] === 'guilds')
    return {
      status: 200,
      body: ctx.config.guilds.map((guild) => ({
        id: guild.id,
        name: guild.name,
        icon: null,
        banner: null,
        owner: false,
        permissions: '0',
        features: [],
      })),
    };
  if (method === 'POST' && segments.length === 3 && segments[2] === 'channels') {
    const recipient = body?.recipient_id;
    if (typeof recipient !== 'string' || !/^\d{17,20}$/.test(recipient))
      return invalid({ message: 'Invalid Recipient(s)', code: 50033 });
    return { status: 200, body: ctx.store.openDm(recipient) };
  }
  return undefined;
};

/** /guilds/{id}, /guilds/{id}/roles, /guilds/{id}/channels, /guilds/{id}/members/{user}[/roles/{role}] */
const guilds: Handler = (ctx, request) => {
  const { segments, method } = request;
  if (segments.length === 6 && segments[2] === 'members' && segments[4] === 'roles') return memberRole(ctx, request);
  if (method !== 'GET') return undefined;
  const [, guildId, sub, userId] = segments;
  const guild = guildId === undefined ? undefined : ctx.store.guild(guildId);
  if (segments.length < 2 || segments.length > 4) return undefined;
  if (!guild) return segments.length === 2 ? UNKNOWN_GUILD : MISSING_ACCESS;
  if (segments.length === 2) {
    const {
      members: _m,
      channels: _c,
      threads: _t,
      presences: _p,
      voice_states: _v,
      ...rest
    } = ctx.store.guildCreate(guild);
    return { status: 200, body: rest };
  }
  if (segments.length === 3 && sub === 'roles') return { status: 200, body: guild.roles };
  if (segments.length === 3 && sub === 'channels')
    return { status: 200, body: [ctx.store.channel(textChannelIdFor(guild.id))] };
  if (segments.length === 4 && sub === 'members') {
    const member = ctx.store.member(guild.id, userId!);
    return member ? { status: 200, body: member } : UNKNOWN_MEMBER;
  }
  return undefined;
};

/** PUT / DELETE /guilds/{g}/members/{u}/roles/{r}: 204, recorded with its audit-log reason. */
function memberRole(ctx: RestContext, { segments, method, headers, at }: RestRequest): RestResult | undefined {
  if (method !== 'PUT' && method !== 'DELETE') return undefined;
  const [, guildId, , userId, , roleId] = segments as [string, string, string, string, string, string];
  const guild = ctx.store.guild(guildId);
  if (!guild) return MISSING_ACCESS;
  if (ctx.store.refuseRoleChanges) return MISSING_PERMISSIONS;
  if (!guild.roles.some((role) => role.id === roleId)) return UNKNOWN_ROLE;
  const raw = headers['x-audit-log-reason'];
  const reason = typeof raw === 'string' ? decodeURIComponent(raw) : undefined;
  const change = method === 'PUT' ? 'add' : 'remove';
  return ctx.store.changeMemberRole({ change, guildId, userId, roleId, reason }, at) ? { status: 204 } : UNKNOWN_MEMBER;
}
