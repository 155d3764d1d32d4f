import type { FastifyReply, FastifyRequest } from 'fastify';
import { translatorFor, type MessageKey } from '../i18n/index.js';
import { html } from './html.js';
import { page } from './layout.js';
import type { Member } from './session.js';

/** A page that says what went wrong and what to do; each has `<key>.title` and `<key>.text` in the catalogs. */
export type Problem =
  | 'dashboard.error.signIn'
  | 'dashboard.error.forbidden'
  | 'dashboard.error.notFound'
  | 'dashboard.error.state'
  | 'dashboard.error.csrf'
  | 'dashboard.error.tooMany'
  | 'dashboard.error.discord'
  | 'dashboard.error.clientSecret'
  | 'dashboard.error.code'
  | 'dashboard.error.denied'
  | 'dashboard.error.internal'
  | 'dashboard.loggedOut';

/** The language of a page for someone perhaps not signed in: theirs if known, else the browser's first. */
function localeOf(request: FastifyRequest, member?: Member): string | undefined {
  if (member) return member.locale;
  const first = request.headers['accept-language']?.split(',')[0]?.split(';')[0]?.trim();
  // Discord's codes: `de`, `fr`, `es-ES`, `pt-BR`; a browser's `de-DE` or `es` is read as Discord's.
  if (!first) return undefined;
  if (/^es/i.test(first)) return 'es-ES';
  if (/^pt/i.test(first)) return 'pt-BR';
  return first.split('-')[0]!.toLowerCase();
}

export function problemPage(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  problem: Problem,
  vars: Record<string, string | number> = {},
  member?: Member,
) {
  const i18n = translatorFor(localeOf(request, member));
  const { t } = i18n;
  const signIn = status === 401 || problem === 'dashboard.error.state' || problem === 'dashboard.error.denied';
  const body = html`<p>${t(`${problem}.text` as MessageKey, vars)}</p>
    <p>
      ${
        signIn || problem === 'dashboard.loggedOut'
          ? html`<a class="button" href="/login">${t('dashboard.signIn')}</a>`
          : html`<a href="/">${t('dashboard.backToServers')}</a>`
      }
    </p>`;
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(page({ i18n, title: t(`${problem}.title` as MessageKey), body }));
}
