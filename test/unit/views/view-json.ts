import type { APIButtonComponent, APIEmbed } from 'discord.js';
import type { MessageView } from '../../../src/views/message.js';

/** A fixed clock: 2025-03-01T12:00:00Z, unix 1740830400. */
export const NOW = new Date('2025-03-01T12:00:00Z');
export const NOW_UNIX = 1_740_830_400;
export const MEMBER = '123456789012345678';

export function embedOf(view: MessageView): APIEmbed {
  const embed = view.embeds[0];
  if (!embed) throw new Error('view has no embed');
  return embed.toJSON();
}

export function buttonsOf(view: MessageView): APIButtonComponent[] {
  return view.components.flatMap((row) => row.toJSON().components);
}

export function customIdOf(button: APIButtonComponent | undefined): string | undefined {
  return button && 'custom_id' in button ? button.custom_id : undefined;
}

/** Every text a member can read in the embed, joined. */
export function embedText(embed: APIEmbed): string {
  return [
    embed.title,
    embed.description,
    ...(embed.fields ?? []).flatMap((field) => [field.name, field.value]),
    embed.footer?.text,
  ]
    .filter((part) => part !== undefined)
    .join('\n');
}
