import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { html, type Html } from './html.js';
import { isChange } from './form-body.js';
import type { Sessions } from './session.js';

/** The form field every form carries, and the header a script may send instead. */
const CSRF_FIELD = '_csrf';
const CSRF_HEADER = 'x-csrf-token';

/** The hidden field that goes into every form: the session's token. */
export function csrfField(token: string): Html {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${token}" />`;
}

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The token a request sent: the form field, else the header. */
function sentToken(request: FastifyRequest): string | undefined {
  const body = request.body as Record<string, unknown> | undefined;
  const field = body && typeof body === 'object' ? body[CSRF_FIELD] : undefined;
  if (typeof field === 'string') return field;
  const header = request.headers[CSRF_HEADER];
  return typeof header === 'string' ? header : undefined;
}

/**
 * A preHandler for the whole app: a request that changes something must carry the session's token,
 * so another site cannot make a signed-in member's browser post a form. `refuse` sends the 403 page.
 */
export function checkCsrf(sessions: Sessions, refuse: (request: FastifyRequest, reply: FastifyReply) => unknown) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isChange(request)) return;
    const expected = sessions.csrfKept(request);
    const sent = sentToken(request);
    if (expected === undefined || sent === undefined || !same(expected, sent)) return refuse(request, reply);
  };
}
