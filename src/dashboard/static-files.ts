import type { FastifyInstance } from 'fastify';
import { PREVIEW_SCRIPT_PATH } from './pages/announcements.js';
import { PAGES_CSS, PAGES_CSS_PATH } from './pages/pages-css.js';
import { PREVIEW_SCRIPT } from './pages/preview-script.js';

export const STATIC_CSS = '/static/dashboard.css';
export const STATIC_JS = '/static/dashboard.js';

/** Plain, readable on a phone: one column, system fonts, the browser's own light or dark scheme. */
const CSS = `:root { color-scheme: light dark; --ok: #1a7f37; --bad: #c62828; --line: #8884; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; }
header { display: flex; flex-wrap: wrap; gap: .5rem; justify-content: space-between; align-items: center;
  padding: .75rem 1rem; border-bottom: 1px solid var(--line); }
header .home { font-weight: 600; text-decoration: none; color: inherit; }
.logout { display: flex; gap: .5rem; align-items: center; margin: 0; }
.server { margin: .75rem 1rem 0; font-weight: 600; }
nav.pages ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: .5rem 1rem; padding: 0; }
nav.pages a[aria-current="page"] { font-weight: 600; text-decoration: none; }
main { max-width: 48rem; padding: 0 1rem 2rem; }
h1 { font-size: 1.4rem; }
ul.checks, ul.servers, ol.reviews { list-style: none; padding: 0; }
ul.checks li, ul.servers li, ol.reviews li { padding: .6rem 0; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
.ok::before { content: "✔ "; color: var(--ok); }
.bad::before { content: "✘ "; color: var(--bad); }
.fix { display: block; margin-left: 1.4rem; }
.review p { white-space: pre-wrap; margin: .25rem 0 0; }
.meta { opacity: .8; font-size: .9rem; }
button, .button { font: inherit; padding: .4rem .9rem; border-radius: .4rem; border: 1px solid var(--line); cursor: pointer; }
.pager { display: flex; gap: 1rem; }
`;

/**
 * A little progressive JavaScript: times are shown in the reader's own zone, in the one format the
 * pages write (`2026-11-28 10:43 UTC`) with that zone's name in place of UTC; without it they stay in
 * UTC, as the page wrote them.
 */
const JS = `var format = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit',
  hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' });
document.querySelectorAll('time[datetime]').forEach(function (el) {
  var at = new Date(el.getAttribute('datetime'));
  if (isNaN(at.getTime())) return;
  var part = {};
  format.formatToParts(at).forEach(function (p) { part[p.type] = p.value; });
  el.textContent = part.year + '-' + part.month + '-' + part.day + ' ' + part.hour + ':' + part.minute + ' ' + part.timeZoneName;
});
`;

/** The files every page loads, and the announcements page's live preview; cached an hour (they change only with the bot). */
export function staticFiles(app: FastifyInstance): void {
  const serve = (path: string, type: string, body: string) =>
    app.get(path, async (_request, reply) =>
      reply.type(type).header('cache-control', 'public, max-age=3600').send(body),
    );
  serve(STATIC_CSS, 'text/css; charset=utf-8', CSS);
  serve(STATIC_JS, 'text/javascript; charset=utf-8', JS);
  serve(PAGES_CSS_PATH, 'text/css; charset=utf-8', PAGES_CSS);
  serve(PREVIEW_SCRIPT_PATH, 'text/javascript; charset=utf-8', PREVIEW_SCRIPT);
}
