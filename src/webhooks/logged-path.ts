import { isSnowflake } from '../api/index.js';
import { isSiteId } from '../lists/index.js';

/** Where a refused path is cut in the log. ASCII: the start bundle keeps to it. */
const CUT = '...';
const MAX_LOGGED = 120;

/**
 * What of a refused request's path the log may show: its segments up to the first one that is not
 * a segment of WEBHOOK_PATH, a server id or a list's id, then `...`. Discadia's secret is a segment
 * of its address, and an address pasted with a trailing slash, an extra segment or the secret in the
 * wrong place reaches the 404 with the secret in it: no segment past a known one is ever written.
 */
export function loggedPath(pathname: string, basePath: string): string {
  const known = new Set(basePath.split('/'));
  const segments = pathname.split('/').slice(1);
  const shown: string[] = [];
  for (const segment of segments) {
    if (!known.has(segment) && !isSnowflake(segment) && !isSiteId(segment)) {
      shown.push(CUT);
      break;
    }
    shown.push(segment);
  }
  return `/${shown.join('/')}`.slice(0, MAX_LOGGED);
}
