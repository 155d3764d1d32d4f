import { randomBytes } from 'node:crypto';
import { Routes, type REST } from 'discord.js';
import type { MessageView } from '../views/message.js';

/** Posting to and editing in a channel; discord.js's REST queue honours Discord's rate-limit buckets. */
export interface ChannelPoster {
  /**
   * Posts a REST message body; returns the new message's id. With a nonce, Discord returns the
   * message an earlier try made (enforce_nonce, kept a few minutes), so a post retried after a
   * crash shows once.
   */
  send(channelId: string, body: unknown, nonce?: string): Promise<string>;
  edit(channelId: string, messageId: string, body: unknown): Promise<void>;
}

export function channelPoster(rest: REST): ChannelPoster {
  return {
    async send(channelId, body, nonce) {
      const withNonce = nonce === undefined ? body : { ...(body as object), nonce, enforce_nonce: true };
      const message = (await rest.post(Routes.channelMessages(channelId), { body: withNonce })) as { id: string };
      return message.id;
    },
    async edit(channelId, messageId, body) {
      await rest.patch(Routes.channelMessage(channelId, messageId), { body });
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

/** A nonce (Discord allows 25 characters) for one post, fixed in the store before its first try. */
export function newNonce(): string {
  return randomBytes(18).toString('base64url').slice(0, 25);
}
