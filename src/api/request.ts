import { joinUrl } from './base-url.js';
import type { AttemptInfo, RouteName } from './types.js';

const USER_AGENT = 'vote-review-bot/0.1.0 (+node)';

export interface HttpRequest {
  route: RouteName;
  method: 'GET' | 'POST';
  /** Path below the base URL, already encoded, e.g. /votes/123. */
  path: string;
  body?: unknown;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  /** The whole body, read under the same per-attempt timeout as the headers. */
  text: string;
}

/**
 * Why an attempt got no complete response. `refused` and `dns` prove the request never reached the
 * service (the only transport failures after which a POST may be sent again); `network` covers
 * resets and sockets closed mid-response, which prove nothing.
 */
export type TransportKind = 'refused' | 'dns' | 'network' | 'attempt_timeout' | 'deadline';

export class TransportFailure extends Error {
  constructor(
    readonly kind: TransportKind,
    /** A short code for logs, e.g. ECONNREFUSED or timeout; never the URL or headers. */
    readonly detail: string,
    readonly status?: number,
  ) {
    super(`${kind} (${detail})`);
    this.name = 'TransportFailure';
  }
}

export interface RequesterConfig {
  baseUrl: string;
  apiKey: string;
  appId: string;
  headerPrefix: string;
  attemptTimeoutMs: number;
  onAttempt?: (info: AttemptInfo) => void;
}

export type Send = (request: HttpRequest, attempt: number, callSignal: AbortSignal) => Promise<RawResponse>;

/**
 * The one place that talks HTTP: credentials, JSON, the per-attempt timeout (headers and body), and
 * the attempt report. It returns every status as data; what a status means is for the caller.
 */
export function createRequester(config: RequesterConfig): Send {
  const headers = {
    [`${config.headerPrefix}-Api-Key`]: config.apiKey,
    [`${config.headerPrefix}-App-Id`]: config.appId,
    Accept: 'application/json',
    'User-Agent': USER_AGENT,
  };

  return async function send(request, attempt, callSignal) {
    const attemptTimer = new AbortController();
    const timer = setTimeout(() => attemptTimer.abort(), config.attemptTimeoutMs);
    const signal = AbortSignal.any([callSignal, attemptTimer.signal]);
    const started = performance.now();
    let status: number | undefined;
    let failure: TransportFailure | undefined;
    try {
      const response = await fetch(joinUrl(config.baseUrl, request.path), {
        method: request.method,
        headers: request.body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal,
        // A redirect would carry the credential headers to wherever it points: never follow one.
        redirect: 'manual',
      });
      status = response.status;
      const text = await response.text();
      return { status, headers: response.headers, text };
    } catch (error) {
      failure = classify(error, callSignal, attemptTimer.signal, status);
      throw failure;
    } finally {
      clearTimeout(timer);
      report(config.onAttempt, {
        route: request.route,
        method: request.method,
        attempt,
        durationMs: Math.round(performance.now() - started),
        ...(status === undefined ? {} : { status }),
        ...(failure === undefined ? {} : { error: failure.detail }),
      });
    }
  };
}

function classify(error: unknown, callSignal: AbortSignal, attemptSignal: AbortSignal, status?: number) {
  if (callSignal.aborted) return new TransportFailure('deadline', 'aborted', status);
  if (attemptSignal.aborted) return new TransportFailure('attempt_timeout', 'timeout', status);
  const code = networkCode(error);
  if (code === 'ECONNREFUSED') return new TransportFailure('refused', code, status);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new TransportFailure('dns', code, status);
  return new TransportFailure('network', code ?? 'network_error', status);
}

/** undici's fetch throws TypeError('fetch failed') with the socket error (or an AggregateError) as cause. */
function networkCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown; errors?: Array<{ code?: unknown }> } })?.cause;
  const code = cause?.code ?? cause?.errors?.[0]?.code;
  return typeof code === 'string' ? code : undefined;
}

/** An observer's failure must never fail the call it observes. */
function report(onAttempt: RequesterConfig['onAttempt'], info: AttemptInfo): void {
  try {
    onAttempt?.(info);
  } catch {
    // Deliberately ignored: logging and metrics are best effort.
  }
}
