import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Translator } from '../i18n/index.js';
import { memberOf } from './access.js';
import type { Html } from './html.js';
import { page } from './layout.js';
import { SERVER_PAGES, type ServerPageId } from './nav.js';
import type { Sessions } from './session.js';

export interface SentPage {
  readonly i18n: Translator;
  readonly body: Html;
  /** A server's page: its menu, this one marked, and (unless `title` says otherwise) its name in the menu as the title. */
  readonly server?: { readonly id: string; readonly name: string; readonly current: ServerPageId };
  /** The title; a server's page without one is titled as the menu names it. */
  readonly title?: string;
  readonly status?: number;
}

/** A page as the answer to a signed-in member: the layout around `body`, with their form token. */
export function sendPage(request: FastifyRequest, reply: FastifyReply, sessions: Sessions, sent: SentPage) {
  const { i18n, body, server, status = 200 } = sent;
  const named = server && SERVER_PAGES.find((one) => one.id === server.current);
  const title = sent.title ?? (named ? i18n.t(named.label) : '');
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(page({ i18n, title, body, member: { member: memberOf(request), csrf: sessions.csrf(request) }, server }));
}
