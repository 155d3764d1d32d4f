import type { Translator } from '../../i18n/index.js';
import { html, type Html } from '../html.js';
import { serverPath } from '../nav.js';

/** The member's servers the bot is in, each a link to its overview. */
export function serversBody(servers: ReadonlyArray<{ id: string; name: string }>, { t }: Translator): Html {
  if (servers.length === 0) return html`<p>${t('dashboard.servers.none')}</p>`;
  return html`<p>${t('dashboard.servers.intro')}</p>
    <ul class="servers">
      ${servers.map((server) => html`<li><a href="${serverPath(server.id)}">${server.name}</a></li>`)}
    </ul>`;
}
