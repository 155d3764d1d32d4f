import { Routes, type REST } from 'discord.js';
import type { MessageView } from '../views/message.js';

/** Posting to and editing in a channel; discord.js's REST queue honours Discord's rate-limit buckets. */
export interface ChannelPoster {
  /** Returns the new message's id. */
  create(channelId: string, view: MessageView): Promise<string>;
  edit(channelId: string, messageId: string, view: MessageView): Promise<void>;
}

export function channelPoster(rest: REST): ChannelPoster {
  return {
    async create(channelId, view) {
      const message = (await rest.post(Routes.channelMessages(channelId), { body: toBody(view) })) as { id: string };
      return message.id;
    },
    async edit(channelId, messageId, view) {
      await rest.patch(Routes.channelMessage(channelId, messageId), { body: toBody(view) });
    },
  };
}

function toBody(view: MessageView) {
  return {
    embeds: view.embeds.map((embed) => embed.toJSON()),
    components: view.components.map((row) => row.toJSON()),
    allowed_mentions: { parse: [] },
  };
}
