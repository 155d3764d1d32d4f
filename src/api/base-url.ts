import { InvalidInputError } from './errors.js';

/**
 * Checks and normalises the service base URL: absolute, https (plain http only on loopback, for
 * the sandbox), no credentials, query or fragment, and no trailing slash, so that joining keeps
 * the `/v1` segment. The real service requires HTTPS, and the API key must never cross a network
 * in clear text.
 * @example parseBaseUrl('https://api.example.com/v1/') // 'https://api.example.com/v1'
 */
export function parseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new InvalidInputError('baseUrl', 'Base URL must be an absolute URL, e.g. https://api.example.com/v1.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InvalidInputError('baseUrl', `Base URL must use https, not ${url.protocol.slice(0, -1)}.`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new InvalidInputError(
      'baseUrl',
      `Base URL must use https: plain http would send the API key in clear text (http is allowed only for loopback hosts such as 127.0.0.1 or localhost, got ${url.hostname}).`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new InvalidInputError('baseUrl', 'Base URL must not carry a user name or password.');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new InvalidInputError('baseUrl', 'Base URL must not have a query string or fragment.');
  }
  // Without it every route answers 404, which GET /reviews reads as "no review": members who
  // have one would be told they have none.
  if (!/\/v1\/*$/.test(url.pathname)) {
    throw new InvalidInputError(
      'baseUrl',
      `Base URL must end in the API version segment /v1, e.g. ${url.origin}/v1 (got the path ${url.pathname}).`,
    );
  }
  return url.href.replace(/\/+$/, '');
}

/** The credential headers' prefix when none is set: Guilds for guilds.me and its subdomains, else the spec's. */
export function defaultHeaderPrefix(baseUrl: string): 'Guilds' | 'Service' {
  const host = new URL(baseUrl).hostname.toLowerCase().replace(/\.$/, '');
  return host === 'guilds.me' || host.endsWith('.guilds.me') ? 'Guilds' : 'Service';
}

/** Appends a path (starting with '/') to a base from parseBaseUrl; `new URL(path, base)` would drop `/v1`. */
export function joinUrl(base: string, path: string): string {
  return `${base}${path}`;
}

/** 127.0.0.0/8, ::1 and localhost (with *.localhost, which resolvers keep on loopback). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
