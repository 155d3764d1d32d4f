import type { Translator } from '../../i18n/index.js';
import type { StatusLine } from '../../views/setup-status.js';
import { html, type Html } from '../html.js';
import { utcText } from './form.js';

/** Names for the mentions `/setup status` writes, so a page shows `#reviews` rather than `<#123…>`. */
export interface MentionNames {
  channel(id: string): string | undefined;
  role(id: string): string | undefined;
}

/**
 * A status line's text as a page shows it: mentions named, Discord's timestamps (`<t:…:R>`) as the
 * UTC time they stand for, Discord's `**` and backticks dropped.
 */
export function plainText(text: string, names: MentionNames): string {
  return text
    .replace(/<#(\d{17,20})>/g, (whole, id: string) => {
      const name = names.channel(id);
      return name === undefined ? whole : `#${name}`;
    })
    .replace(/<@&(\d{17,20})>/g, (whole, id: string) => {
      const name = names.role(id);
      return name === undefined ? whole : `@${name}`;
    })
    .replace(/<t:(\d{1,13})(?::[tTdDfFR])?>/g, (_whole, seconds: string) => utcText(Number(seconds) * 1000))
    .replace(/\*\*|`/g, '');
}

/** `/setup status` on a page: each check ✔ or ✘, each ✘ with its fix. */
export function overviewBody(lines: readonly StatusLine[], names: MentionNames, { t }: Translator): Html {
  const allOk = lines.every((line) => line.ok);
  return html`<p>${allOk ? t('dashboard.overview.allOk') : t('dashboard.overview.someToFix')}</p>
    <ul class="checks">
      ${lines.map(
        (line) =>
          html`<li class="${line.ok ? 'ok' : 'bad'}">
            <strong>${plainText(line.label, names)}</strong>: ${plainText(line.detail, names)}
            ${line.ok ? '' : html`<span class="fix">${t('setup.status.fix', { fix: plainText(line.fix, names) })}</span>`}
          </li>`,
      )}
    </ul>`;
}
