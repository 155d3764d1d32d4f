import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { parseRetryAfter } from '../api/index.js';
import type { ForwardResult } from '../store/index.js';
import { isRefusedAddress } from './address-rules.js';
import { voteSignature } from './signature.js';

/** What a destination has to answer within, headers and all (the 5 s). */
const SEND_TIMEOUT_MS = 5_000;
/** A destination's answer is read no further than this: only its status matters. */
export const RESPONSE_READ_MAX = 4 * 1024;

/** Resolves a host name to every address it has, as node:dns does. */
type ResolveAll = (host: string) => Promise<Array<{ address: string; family: number }>>;

export interface SendOptions {
  /** FORWARD_ALLOW_PRIVATE: plain http and private, loopback and link-local addresses allowed (local tests). */
  allowPrivate: boolean;
  resolve?: ResolveAll;
  timeoutMs?: number;
}

export interface ForwardRequest {
  url: string;
  /** Opened for this request alone. */
  secret: string;
  body: string;
  deliveryId: string;
  /** When it is signed (epoch ms). */
  at: number;
}

export interface Sent {
  result: ForwardResult;
  /** What a 429 or 503 asked to wait (Retry-After), in ms. */
  retryAfterMs?: number;
}

const resolveAll: ResolveAll = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * POSTs one signed delivery. The host is resolved at every send and every address it has is judged
 * (a name that resolved to a public address when it was added may not now); the connection goes to
 * the address judged, never to a second lookup's. Redirects are not followed.
 */
export async function sendForward(request: ForwardRequest, options: SendOptions): Promise<Sent> {
  const url = new URL(request.url);
  const secure = url.protocol === 'https:';
  if (!secure && !(options.allowPrivate && url.protocol === 'http:'))
    return { result: { outcome: 'refused', reason: 'http' } };
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: Array<{ address: string; family: number }>;
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await (options.resolve ?? resolveAll)(host);
  } catch {
    return { result: { outcome: 'refused', reason: 'unresolved' } };
  }
  const [first] = addresses;
  if (!first) return { result: { outcome: 'refused', reason: 'unresolved' } };
  if (!options.allowPrivate && addresses.some(({ address }) => isRefusedAddress(address)))
    return { result: { outcome: 'refused', reason: 'private' } };
  return post(url, secure, first, request, options.timeoutMs ?? SEND_TIMEOUT_MS);
}

function post(
  url: URL,
  secure: boolean,
  pinned: { address: string; family: number },
  request: ForwardRequest,
  timeoutMs: number,
): Promise<Sent> {
  // Node asks for every address when it races families (autoSelectFamily): the one judged is all it gets.
  const lookup: LookupFunction = (_host, opts, done) => {
    if (opts.all) done(null, [pinned]);
    else done(null, pinned.address, pinned.family);
  };
  const signature = voteSignature(request.secret, request.body, Math.floor(request.at / 1000));
  return new Promise((resolve) => {
    const req = (secure ? https : http).request(url, {
      method: 'POST',
      agent: false,
      lookup,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(request.body),
        'user-agent': 'vote-review-bot (vote forwarding)',
        'x-vote-signature': signature,
        'x-vote-delivery': request.deliveryId,
      },
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve({ result: { outcome: 'retrying', reason: 'timeout' } });
    }, timeoutMs);
    req.on('response', (res) => {
      clearTimeout(timer);
      resolve(judged(res));
      readLittle(res);
    });
    req.on('error', () => {
      clearTimeout(timer);
      resolve({ result: { outcome: 'retrying', reason: 'network' } });
    });
    req.end(request.body);
  });
}

/** The status decides: 2xx delivered; 408, 429 and 5xx tried again; a 3xx (not followed) or other 4xx given up. */
function judged(res: IncomingMessage): Sent {
  const status = res.statusCode ?? 0;
  if (status >= 200 && status < 300) return { result: { outcome: 'delivered', status } };
  if ((status >= 300 && status < 400) || (status >= 400 && status < 500 && status !== 408 && status !== 429))
    return { result: { outcome: 'gaveUp', status } };
  const header = res.headers['retry-after'];
  const retryAfterMs = parseRetryAfter(Array.isArray(header) ? header[0] : header);
  return retryAfterMs === undefined
    ? { result: { outcome: 'retrying', status } }
    : { result: { outcome: 'retrying', status }, retryAfterMs };
}

/** Lets the answer's first bytes through (so the destination sees its answer taken), then closes it. */
function readLittle(res: IncomingMessage): void {
  let read = 0;
  res.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > RESPONSE_READ_MAX) res.destroy();
  });
  res.on('error', () => undefined);
  setTimeout(() => res.destroy(), SEND_TIMEOUT_MS).unref();
}
