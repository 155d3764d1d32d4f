import type { Translator } from '../../i18n/index.js';
import type { StatusLine } from '../../views/setup-status.js';
import { html, type Html } from '../html.js';

/**
 * `/setup status` on a page: each check ✔ or ✘, each ✘ with its fix. `shown` turns a line's Discord
 * text into a page's (page-text.ts: plainText with the server's names).
 */
export function overviewBody(lines: readonly StatusLine[], shown: (text: string) => string, { t }: Translator): Html {
  const allOk = lines.every((line) => line.ok);
  return html`<p>${allOk ? t('dashboard.overview.allOk') : t('dashboard.overview.someToFix')}</p>
    <ul class="checks">
      ${lines.map(
        (line) =>
          html`<li class="${line.ok ? 'ok' : 'bad'}">
            <strong>${shown(line.label)}</strong>: ${shown(line.detail)}
            ${line.ok ? '' : html`<span class="fix">${t('setup.status.fix', { fix: shown(line.fix) })}</span>`}
          </li>`,
      )}
    </ul>`;
}
