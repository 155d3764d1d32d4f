import {
  InteractionResponseType,
  MessageFlags,
  Routes,
  type ChatInputCommandInteraction,
  type Client,
  type MessageComponentInteraction,
  type MessageMentionOptions,
  type ModalSubmitInteraction,
  DefaultUserAgent,
  DiscordAPIError,
  type DiscordErrorData,
  type InteractionEditReplyOptions,
  type InteractionReplyOptions,
  type OAuthErrorData,
} from 'discord.js';
import { requestText, type TextResponse } from '../core/http-text.js';
import { inlineCallbacksOf } from './inline-callbacks.js';

/** What a handler answers with: a reply's fields, sent as a reply, an update or an edit of a deferral. */
export type ReplyPayload = Omit<InteractionReplyOptions, 'flags' | 'withResponse' | 'fetchReply'> &
  Omit<InteractionEditReplyOptions, 'flags'>;

type Repliable = ChatInputCommandInteraction | MessageComponentInteraction | ModalSubmitInteraction;

/** The fields a plain answer has; anything else (files, polls, attachments …) goes through discord.js. */
const PLAIN_FIELDS = new Set(['content', 'embeds', 'components', 'allowedMentions']);

/**
 * `interaction.reply` for the plain answers views build (text, embeds, buttons), posted straight to
 * the callback route. discord.js's own path re-resolves five structure modules with `require` and
 * snake-cases the payload on every reply (docs/performance.md, "What each interaction costs").
 * The request, its errors (DiscordAPIError) and the interaction's `replied`/`ephemeral` state are
 * the same as `reply`'s; any other payload is handed to `reply` itself.
 */
export async function replyPlain(interaction: Repliable, payload: ReplyPayload, flags: number | undefined) {
  // An answered interaction goes to discord.js too, for its own refusal before anything is sent.
  if (!isPlain(payload) || interaction.deferred || interaction.replied) {
    await interaction.reply({ ...payload, flags });
    return;
  }
  const mentions = payload.allowedMentions ?? interaction.client.options.allowedMentions;
  const data = {
    ...(payload.content === undefined ? {} : { content: payload.content }),
    ...(payload.embeds === undefined ? {} : { embeds: payload.embeds.map(toApi) }),
    ...(payload.components === undefined ? {} : { components: payload.components.map(toApi) }),
    ...(mentions === undefined ? {} : { allowed_mentions: apiMentions(mentions) }),
    ...(flags === undefined ? {} : { flags }),
  };
  await postCallback(interaction, { type: InteractionResponseType.ChannelMessageWithSource, data });
  interaction.ephemeral = Boolean((flags ?? 0) & MessageFlags.Ephemeral);
  interaction.replied = true;
}

/** Discord's answer to a callback this module sent: the interaction, the callback's type, accepted or not. */
export type CallbackListener = (interactionId: string, callbackType: number, accepted: boolean) => void;

const callbackListeners = new WeakMap<Client, CallbackListener[]>();

/**
 * Tells `listener` of Discord's answer to every callback sent here (metrics); the callbacks
 * discord.js sends, and the ones handed back to it, show as its REST client's `response` events.
 */
export function onCallbackAnswered(client: Client, listener: CallbackListener): void {
  callbackListeners.set(client, [...(callbackListeners.get(client) ?? []), listener]);
}

/**
 * The callback itself over undici (unauthenticated, outside the bot's global limit): @discordjs/rest's
 * queue, handler and abort signal per request were a tenth of what each /vote allocated. What that
 * path handles beyond one plain request (a 429's wait, a 5xx or a transport failure retried) is left
 * to it: the request is handed to `rest.post`, as `reply` would have sent it. A refusal throws the
 * same DiscordAPIError.
 */
async function postCallback(interaction: Repliable, body: { type: number; data: unknown }): Promise<void> {
  const { rest } = interaction.client;
  const route = Routes.interactionCallback(interaction.id, interaction.token);
  const url = `${rest.options.api}/v${rest.options.version}${route}`;
  const viaRest = () => rest.post(route, { body, auth: false });
  // An interaction that came over HTTP is answered in that response: at once while it waits, else
  // through REST, whose makeRequest turns the answer into an edit of the deferral sent meanwhile.
  const inline = inlineCallbacksOf(interaction.client);
  if (inline?.claims(interaction.id)) {
    if (inline.answerWith(interaction.id, body)) tell(interaction, body.type, true);
    else await viaRest();
    return;
  }
  // The status once the headers are in: a body that fails after them does not make the callback unsent.
  let answered = 0;
  let response: Pick<TextResponse, 'status' | 'text'>;
  try {
    response = await requestText(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': `${DefaultUserAgent} ${rest.options.userAgentAppendix}`.trim(),
      },
      body: JSON.stringify(body),
      maxBytes: MAX_ANSWER_BYTES,
      headersTimeout: rest.options.timeout,
      bodyTimeout: rest.options.timeout,
      onStatus: (status) => (answered = status),
    });
  } catch {
    if (answered === 0) {
      await viaRest();
      return;
    }
    response = { status: answered, text: '' };
  }
  const { status } = response;
  tell(interaction, body.type, status < 300);
  if (status < 300) return;
  if (status === 429 || status >= 500) {
    await viaRest();
    return;
  }
  throw apiError(parseError(response.text), status, url, body);
}

/** Discord answers a callback with nothing, or a small JSON error. */
const MAX_ANSWER_BYTES = 64 * 1024;

function tell(interaction: Repliable, callbackType: number, accepted: boolean): void {
  for (const listener of callbackListeners.get(interaction.client) ?? [])
    listener(interaction.id, callbackType, accepted);
}

function apiError(error: ApiError, status: number, url: string, body: unknown): DiscordAPIError {
  return new DiscordAPIError(error, 'code' in error ? error.code : error.error, status, 'POST', url, { body });
}

type ApiError = DiscordErrorData | OAuthErrorData;

function parseError(text: string): ApiError {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) return parsed as ApiError;
  } catch {
    // not JSON: kept as the message below
  }
  return { code: 0, message: text };
}

function isPlain(payload: ReplyPayload): boolean {
  for (const key in payload) if (!PLAIN_FIELDS.has(key)) return false;
  return payload.content === undefined || typeof payload.content === 'string';
}

/** A builder's JSON, or the API object it already is. */
function toApi(item: unknown): unknown {
  return typeof item === 'object' && item !== null && 'toJSON' in item && typeof item.toJSON === 'function'
    ? (item.toJSON as () => unknown)()
    : item;
}

function apiMentions({ parse, users, roles, repliedUser }: MessageMentionOptions) {
  return {
    ...(parse === undefined ? {} : { parse }),
    ...(users === undefined ? {} : { users }),
    ...(roles === undefined ? {} : { roles }),
    ...(repliedUser === undefined ? {} : { replied_user: repliedUser }),
  };
}
