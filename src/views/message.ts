import type { ActionRowBuilder, ButtonBuilder } from 'discord.js';
import type { EmbedBuilder } from './embed-builder.js';

/**
 * What every view returns: a payload a handler passes as-is to `reply`, `editReply` or `update`.
 * `components` is always present so an `update` clears buttons a previous page had.
 * Views never set the ephemeral flag; the handler decides who sees the message.
 */
export interface MessageView {
  embeds: EmbedBuilder[];
  components: ActionRowBuilder<ButtonBuilder>[];
  /** Nothing a view sends may ping anyone, whatever the text contains. */
  allowedMentions: { parse: [] };
}

export function messageView(embed: EmbedBuilder, rows: ActionRowBuilder<ButtonBuilder>[] = []): MessageView {
  return { embeds: [embed], components: rows, allowedMentions: { parse: [] } };
}
