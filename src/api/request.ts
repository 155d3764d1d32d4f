import { BodyTooLarge, RequestTimedOut, requestText } from '../core/http-text.js';
import { joinUrl } from './base-url.js';
import type { RateLimiter } from './rate-limiter.js';
import type { AttemptInfo, CallBudget, ResponseHeaders, RouteName } from './types.js';

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
  headers: ResponseHeaders;
  /** The whole body, read under the same per-attempt timeout as the headers. */
  text: string;
}

/**
 * Why an attempt got no complete response. `refused` and `dns` prove the request never reached the
 * service (the only transport failures after which a POST may be sent again); `network` covers
 * resets and sockets closed mid-response, which prove nothing. `too_large`: the body passed the
 * size cap and was not read further.
 */
export type TransportKind = 'refused' | 'dns' | 'network' | 'attempt_timeout' | 'deadline' | 'too_large';

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
  /** Called for every request: a sealed secret is opened here, where the request is built, and nowhere else. */
  credentials: () => { apiKey: string; appId: string };
  headerPrefix: string;
  attemptTimeoutMs: number;
  /** Bytes of body read at most; past it the attempt ends as `too_large`. */
  maxResponseBytes: number;
  onAttempt?: (info: AttemptInfo) => void;
}

export type Send = (request: HttpRequest, attempt: number, call: CallBudget) => Promise<RawResponse>;

/** The headers that carry the credentials, e.g. Guilds-Api-Key and Guilds-App-Id. */
export function credentialHeaderNames(prefix: string): { apiKey: string; appId: string } {
  return { apiKey: `${prefix}-Api-Key`, appId: `${prefix}-App-Id` };
}

/**
 * Every request through the client's one rate limiter: it waits (or fails fast) before the
 * request leaves and reads the rate-limit headers of whatever comes back.
 */
export function limitedSend(send: Send, limiter: RateLimiter): Send {
  return (request, attempt, call) => {
    const sent = (): Promise<RawResponse> => {
      let response: Promise<RawResponse>;
      try {
        response = send(request, attempt, call);
      } catch (error) {
        limiter.settle();
        return Promise.reject(error as Error);
      }
      return response.then(
        (answer) => {
          limiter.settle(answer);
          return answer;
        },
        (error: unknown) => {
          limiter.settle();
          throw error;
        },
      );
    };
    // Most requests leave at once: no promise and no suspended function for a wait that never happens.
    return limiter.tryAcquire(call) ? sent() : limiter.acquire(call).then(sent);
  };
}

/**
 * The one place that talks HTTP: credentials, JSON, the per-attempt timeout (headers and body), and
 * the attempt report. It returns every status as data; what a status means is for the caller.
 */
export function createRequester(config: RequesterConfig): Send {
  const names = credentialHeaderNames(config.headerPrefix);

  return async function send(request, attempt, call) {
    const { apiKey, appId } = config.credentials();
    const headers = {
      [names.apiKey]: apiKey,
      [names.appId]: appId,
      Accept: 'application/json',
      'User-Agent': USER_AGENT,
    };
    const callSignal = call.signal;
    const started = performance.now();
    let status: number | undefined;
    let failure: TransportFailure | undefined;
    try {
      // undici's dispatcher, not fetch: the same client under fetch's WHATWG layer (Request, Headers and
      // web streams per call), at a fraction of fetch's CPU per request on the bot's hot path.
      // It never follows a redirect, which would carry the credential headers wherever it points.
      const response = await requestText(joinUrl(config.baseUrl, request.path), {
        method: request.method,
        headers: request.body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        signal: callSignal,
        timeoutMs: config.attemptTimeoutMs,
        maxBytes: config.maxResponseBytes,
        onStatus: (code) => (status = code),
      });
      return { status: response.status, headers: new HeaderRecord(response.headers), text: response.text };
    } catch (error) {
      failure = classify(error, callSignal, status);
      throw failure;
    } finally {
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

/** Response headers as undici gives them (lower-case names; a repeated one as an array), read by name. */
class HeaderRecord implements ResponseHeaders {
  constructor(private readonly record: Readonly<Record<string, string | string[] | undefined>>) {}

  get(name: string): string | null {
    const value = this.record[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
}

function classify(error: unknown, callSignal: AbortSignal, status?: number) {
  if (error instanceof TransportFailure) return error;
  if (error instanceof BodyTooLarge) return new TransportFailure('too_large', 'too_large', error.status);
  if (callSignal.aborted) return new TransportFailure('deadline', 'aborted', status);
  if (error instanceof RequestTimedOut) return new TransportFailure('attempt_timeout', 'timeout', status);
  const code = networkCode(error);
  if (code === 'ECONNREFUSED') return new TransportFailure('refused', code, status);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new TransportFailure('dns', code, status);
  return new TransportFailure('network', code ?? 'network_error', status);
}

/** undici's request throws the socket error itself (or an AggregateError of them, one per address tried). */
function networkCode(error: unknown): string | undefined {
  const failure = error as { code?: unknown; errors?: Array<{ code?: unknown }>; cause?: { code?: unknown } };
  const code = failure?.errors?.[0]?.code ?? failure?.code ?? failure?.cause?.code;
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
