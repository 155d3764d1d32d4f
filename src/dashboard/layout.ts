import type { Translator } from '../i18n/index.js';
import { csrfField } from './csrf.js';
import { html, type Html } from './html.js';
import { SERVER_PAGES, serverPath, type ServerPageId } from './nav.js';
import type { Member } from './session.js';
import { PAGES_CSS_PATH } from './pages/pages-css.js';
import { STATIC_CSS, STATIC_JS } from './static-files.js';

export interface PageOptions {
  readonly i18n: Translator;
  readonly title: string;
  readonly body: Html;
  /** Signed in: their name and the logout form (with the session's form token). */
  readonly member?: { readonly member: Member; readonly csrf: string };
  /** A server's page: the menu of its pages, this one marked. */
  readonly server?: { readonly id: string; readonly name: string; readonly current: ServerPageId };
}

/**
 * Every page of the dashboard: language, a phone's viewport, the menu, the logout form; no inline script or style.
 * Its icon is empty (a data: URL, which img-src allows): browsers would otherwise ask for /favicon.ico, a 404 in
 * their console on every visit.
 */
export function page({ i18n, title, body, member, server }: PageOptions): string {
  const { t } = i18n;
  const menu = server
    ? html`<nav class="pages" aria-label="${server.name}">
        <ul>
          ${SERVER_PAGES.map(
            (p) =>
              html`<li>
                <a href="${serverPath(server.id, p.path)}" ${p.id === server.current ? html`aria-current="page"` : ''}
                  >${t(p.label)}</a
                >
              </li>`,
          )}
        </ul>
      </nav>`
    : '';
  const who = member
    ? html`<form class="logout" method="post" action="/logout">
        ${csrfField(member.csrf)}
        <span>${t('dashboard.signedInAs', { name: member.member.name })}</span>
        <button type="submit">${t('dashboard.logout')}</button>
      </form>`
    : '';
  return html`<!doctype html>
    <html lang="${i18n.language}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · ${t('dashboard.title')}</title>
        <link rel="stylesheet" href="${STATIC_CSS}" />
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="${PAGES_CSS_PATH}" />
        <script src="${STATIC_JS}" defer></script>
      </head>
      <body>
        <header>
          <a class="home" href="/">${t('dashboard.title')}</a>
          ${who}
        </header>
        ${server ? html`<p class="server">${server.name}</p>` : ''} ${menu}
        <main>
          <h1>${title}</h1>
          ${body}
        </main>
      </body>
    </html>`.text;
}
