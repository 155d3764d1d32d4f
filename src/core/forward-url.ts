/** The places one server's votes are forwarded to, at most (issue 51). */
export const FORWARD_DESTINATIONS_MAX = 5;

/** Discord's longest option value; a destination's URL is typed in one. */
export const FORWARD_URL_MAX = 2_000;

/**
 * Why `text` cannot be a place votes are forwarded to, or undefined when it can: an absolute https
 * URL (plain http only where private addresses are allowed, for local tests), with no user name or
 * password in it. Whatever it resolves to is judged at every send (src/forwarding/send.ts).
 */
export function forwardUrlProblem(
  text: string,
  allowPrivate: boolean,
): 'invalid' | 'notHttps' | 'credentials' | undefined {
  if (text.length > FORWARD_URL_MAX) return 'invalid';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'invalid';
  }
  if (url.hostname === '') return 'invalid';
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return 'notHttps';
  if (url.username !== '' || url.password !== '') return 'credentials';
  return undefined;
}
