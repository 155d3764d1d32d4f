import type { EmbedBuilder } from './embed-builder.js';

/** The characters Discord counts toward a message's 6,000: title, description, fields, footer, author. */
export function embedSize(embed: EmbedBuilder): number {
  const { title, description, fields, footer, author } = embed.data;
  return (
    (title?.length ?? 0) +
    (description?.length ?? 0) +
    (fields ?? []).reduce((sum, field) => sum + field.name.length + field.value.length, 0) +
    (footer?.text.length ?? 0) +
    (author?.name.length ?? 0)
  );
}
