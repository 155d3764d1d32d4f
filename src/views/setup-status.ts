import { EmbedBuilder } from './embed-builder.js';
import { EMBED_DESCRIPTION_MAX } from '../core/discord-limits.js';
import type { Translator } from '../i18n/index.js';
import { truncate } from '../core/discord-text.js';
import { messageView, type MessageView } from './message.js';
import { ToneColour } from './theme.js';

/** One check of `/setup status`: what was looked at, what was found, and the fix when it failed. */
export type StatusLine =
  { ok: true; label: string; detail: string } | { ok: false; label: string; detail: string; fix: string };

/** One line per check, ✔ or ✘, each failure followed by its fix; green only when every check passed. */
export function setupStatusView(lines: readonly StatusLine[], { t }: Translator): MessageView {
  const text = lines
    .map((line) =>
      line.ok
        ? `✔ **${line.label}**: ${line.detail}`
        : `✘ **${line.label}**: ${line.detail}\n  ↳ ${t('setup.status.fix', { fix: line.fix })}`,
    )
    .join('\n');
  const embed = new EmbedBuilder()
    .setColor(lines.every((line) => line.ok) ? ToneColour.success : ToneColour.warning)
    .setTitle(t('setup.status.title'))
    .setDescription(truncate(text, EMBED_DESCRIPTION_MAX));
  return messageView(embed);
}
