import { DiscordAPIError } from './discord-api-error.js';

/**
 * What a failed Discord call means for the work that made it. `transient`: try again later (5xx,
 * 429, network, a store that did not answer). `refused`: Discord will say the same until a person
 * changes something: missing access or permissions (403), an unknown channel, role or message
 * (404), or a body it will never accept (400). Refusals are parked and reported once, never retried
 * on a timer.
 */
export type Failure =
  | { readonly kind: 'transient' }
  | { readonly kind: 'refused'; readonly status: number; readonly code: number; readonly reason: RefusalReason };

/** `access`: fixed by permissions; `unknown`: by pointing the setting elsewhere; `invalid`: by a fix in the bot. */
type RefusalReason = 'access' | 'unknown' | 'invalid';

export function classifyFailure(err: unknown): Failure {
  if (!(err instanceof DiscordAPIError)) return { kind: 'transient' };
  const { status } = err;
  const code = typeof err.code === 'number' ? err.code : 0;
  if (status === 401 || status === 403) return { kind: 'refused', status, code, reason: 'access' };
  if (status === 404) return { kind: 'refused', status, code, reason: 'unknown' };
  if (status === 400 || status === 413) return { kind: 'refused', status, code, reason: 'invalid' };
  return { kind: 'transient' };
}
