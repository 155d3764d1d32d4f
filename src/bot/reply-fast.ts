import {
  InteractionResponseType,
  MessageFlags,
  Routes,
  type ChatInputCommandInteraction,
  type MessageComponentInteraction,
  type MessageMentionOptions,
  type ModalSubmitInteraction,
} from 'discord.js';
import type { ReplyPayload } from './respond.js';

type Repliable = ChatInputCommandInteraction | MessageComponentInteraction | ModalSubmitInteraction;

/** The fields a plain answer has; anything else (files, polls, attachments …) goes through discord.js. */
const PLAIN_FIELDS = new Set(['content', 'embeds', 'components', 'allowedMentions']);

/**
 * `interaction.reply` for the plain answers views build (text, embeds, buttons), posted straight to
 * the callback route. discord.js's own path re-resolves five structure modules with `require` and
 * snake-cases the payload on every reply: 4–5% of the bot's CPU per /vote in the processing profile.
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
  await interaction.client.rest.post(Routes.interactionCallback(interaction.id, interaction.token), {
    body: { type: InteractionResponseType.ChannelMessageWithSource, data },
    auth: false,
  });
  interaction.ephemeral = Boolean((flags ?? 0) & MessageFlags.Ephemeral);
  interaction.replied = true;
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
