import { createHash } from 'node:crypto';
import { Routes, type REST } from 'discord.js';
import type { MessageView } from '../views/message.js';

/** Posting to and editing in a channel; discord.js's REST queue honours Discord's rate-limit buckets. */
export interface ChannelPoster {
  /**
   * Returns the new message's id. With a nonce, Discord returns the message an earlier try made
   * (enforce_nonce, kept a few minutes), so a post retried after a crash shows once.
   */
  create(channelId: string, view: MessageView, nonce?: string): Promise<string>;
  edit(channelId: string, messageId: string, view: MessageView): Promise<void>;
}

export function channelPoster(rest: REST): ChannelPoster {
  return {
    async create(channelId, view, nonce) {
      const body = { ...messageBody(view), ...(nonce === undefined ? {} : { nonce, enforce_nonce: true }) };
      const message = (await rest.post(Routes.channelMessages(channelId), { body })) as { id: string };
      return message.id;
    },
    async edit(channelId, messageId, view) {
      await rest.patch(Routes.channelMessage(channelId, messageId), { body: messageBody(view) });
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

/** A nonce (Discord allows 25 characters) that is the same every time for the same thing. */
export function stableNonce(kind: string, key: string): string {
  return `${kind}${createHash('sha256').update(key).digest('base64url')}`.slice(0, 25);
}
