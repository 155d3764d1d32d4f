import { isLoopbackHost } from '../api/base-url.js';

/** The host of a public address that is plain http somewhere other than this machine; undefined when it is fine. */
export function plainHttpElsewhere(address: string): string | undefined {
  const url = new URL(address);
  return url.protocol === 'http:' && !isLoopbackHost(url.hostname) ? url.hostname : undefined;
}

export const PLAIN_HTTP_FIX = (setting: string, doc: string): string =>
  `put a reverse proxy with TLS in front (${doc}) and set ${setting} to its https address.`;
