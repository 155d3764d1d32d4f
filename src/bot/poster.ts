import { randomBytes } from 'node:crypto';
import type { REST } from 'discord.js';
import { Routes } from 'discord-api-types/v10';
import { MESSAGE_NONCE_MAX } from '../core/discord-limits.js';
import type { MessageView } from '../views/message.js';

/**
 * The one way the bot posts to Discord outside an interaction's own answer: messages to channels,
 * DMs, and audit messages. discord.js's REST queue honours Discord's rate-limit buckets; a failure
 * comes back as discord.js's DiscordAPIError, which src/work/failure.ts classifies.
 */
export interface Poster {
  /**
   * Posts a REST message body; returns the new message's id. With a nonce, Discord returns the
   * message an earlier try made (enforce_nonce, kept a few minutes), so a post retried after a
   * crash shows once.
   */
  send(channelId: string, body: unknown, nonce?: string): Promise<string>;
  edit(channelId: string, messageId: string, body: unknown): Promise<void>;
  /** Opens the member's DM channel and posts there; returns the message's id. Closed DMs throw (50007). */
  dm(userId: string, body: unknown): Promise<string>;
  /**
   * Tells the audit channel, never failing the work it reports on (a posted reply, a refused role
   * change): a failure goes to `failed`, to be logged, and the result is false.
   */
  audit(channelId: string, body: unknown, failed: (err: unknown) => void): Promise<boolean>;
}

export function discordPoster(rest: REST): Poster {
  const send = async (channelId: string, body: unknown, nonce?: string) => {
    const withNonce = nonce === undefined ? body : { ...(body as object), nonce, enforce_nonce: true };
    const message = (await rest.post(Routes.channelMessages(channelId), { body: withNonce })) as { id: string };
    return message.id;
  };
  return {
    send,
    async edit(channelId, messageId, body) {
      await rest.patch(Routes.channelMessage(channelId, messageId), { body });
    },
    async dm(userId, body) {
      const channel = (await rest.post(Routes.userChannels(), { body: { recipient_id: userId } })) as { id: string };
      return send(channel.id, body);
    },
    async audit(channelId, body, failed) {
      try {
        await send(channelId, body);
        return true;
      } catch (err) {
        failed(err);
        return false;
      }
    },
  };
}

/** A view as a REST message body; nothing in it pings anyone unless the caller says whom. */
export function messageBody(view: MessageView) {
  return {
    embeds: view.embeds.map((embed) => embed.toJSON()),
    components: view.components.map((row) => row.toJSON()),
    allowed_mentions: { parse: [] },
  };
}

/** Text alone (an audit notice), pinging no one whatever it names. */
export function textBody(content: string) {
  return { content, allowed_mentions: { parse: [] } };
}

/** A nonce for one post, fixed in the store before its first try. */
export function newNonce(): string {
  return randomBytes(18).toString('base64url').slice(0, MESSAGE_NONCE_MAX);
}
