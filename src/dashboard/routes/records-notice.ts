import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserMessage } from '../../bot/error-outcome.js';
import { UserFacingError } from '../../bot/user-error.js';
import type { MessageKey, Translator } from '../../i18n/index.js';
import { html, type Html } from '../html.js';
import { pagePath, type PagePath } from '../pages/form.js';

/** What a change on the records pages redirects back with (`?done=`): the notice the page then shows once. */
const DONE = {
  replied: 'dashboard.pages.reviews.replied',
  saved: 'dashboard.pages.listings.saved',
  credentials: 'setup.credentials.saved.title',
} as const satisfies Record<string, MessageKey>;
export type Done = keyof typeof DONE;

/**
 * What a records page says above its body: a change that went through, or one refused (what to fix;
 * nothing changed), or one the service did not take (in the words a member reads in Discord).
 */
export type Notice = { done: string } | { refused: UserFacingError } | { failed: UserMessage };

/** Not set up: where it is set up from here, in the member's language (the bot's refusal names the command only). */
export const notSetUp = ({ t }: Translator) =>
  new UserFacingError('refusal.notSetUp', {
    setup: t('dashboard.pages.setUpWhere', { page: t('dashboard.nav.listings') }),
  });

/** `changing`: the page answers a change asked for (a POST); a page only read changed nothing to begin with. */
function noticeHtml(notice: Notice | undefined, { t }: Translator, changing: boolean): Html | null {
  if (!notice) return null;
  if ('done' in notice) return html`<p class="notice" role="status">✔ ${notice.done}</p>`;
  const { title, description } =
    'failed' in notice
      ? notice.failed
      : {
          title: t(`${notice.refused.key}.title` as MessageKey),
          description: t(`${notice.refused.key}.text` as MessageKey, notice.refused.vars),
        };
  // Only a refusal is sure to have changed nothing: a failed post may have reached the service.
  const nothingChanged = changing && 'refused' in notice ? t('dashboard.pages.notSaved') : null;
  return html`<div class="warning" role="alert">
    <p><strong>${title}</strong> ${nothingChanged}</p>
    <p>${description}</p>
  </div>`;
}

/** The notice a redirect after a change asked for, if it named one. */
export function doneOf(request: FastifyRequest, i18n: Translator): Notice | undefined {
  const done = (request.query as { done?: string } | undefined)?.done;
  return done !== undefined && Object.hasOwn(DONE, done) ? { done: i18n.t(DONE[done as Done]) } : undefined;
}

/** Back to the page after a change made (303), saying what was done. */
export const backTo = (reply: FastifyReply, guildId: string, to: PagePath, done: Done) =>
  reply.code(303).redirect(`${pagePath(guildId, to)}?done=${done}`);

/** The page with its notice above it; `changing` when it answers a POST. */
export const withNotice = (request: FastifyRequest, notice: Notice | undefined, i18n: Translator, body: Html) =>
  html`${noticeHtml(notice, i18n, request.method !== 'GET')}${body}`;
