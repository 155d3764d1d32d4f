import { Agent, type Dispatcher } from 'undici';

/**
 * Connections kept open per origin (the service; Discord for callbacks). undici's default opens another
 * whenever all are busy, and a bot that falls behind keeps them busy with answers it has not read yet:
 * it opened thousands, and opening them put it further behind (docs/performance.md, "Figures behind the
 * code"). Past the cap a request waits in undici's queue.
 */
export const CONNECTIONS_PER_ORIGIN = 256;
const agent = new Agent({ connections: CONNECTIONS_PER_ORIGIN });

/** A whole response: status, headers by lower-case name (a repeated one as an array) and the body as text. */
export interface TextResponse {
  status: number;
  headers: Record<string, string | string[]>;
  text: string;
}

export interface TextRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Ends the request: the promise rejects with whatever the signal was aborted with. */
  signal?: AbortSignal;
  /**
   * A bound on the whole exchange (waiting for a connection, headers, body): past it the request is
   * dropped and the promise rejects with RequestTimedOut. It replaces undici's own headers and body timers.
   */
  timeoutMs?: number;
  /** Bytes of body read at most; past it the connection is dropped and the promise rejects with BodyTooLarge. */
  maxBytes: number;
  headersTimeout?: number;
  bodyTimeout?: number;
  /** Told the status as soon as the headers are in, before the body (which may still fail). */
  onStatus?: (status: number) => void;
}

/** The body was (or said it would be) larger than the cap; `status` is the response's. */
export class BodyTooLarge extends Error {
  constructor(readonly status: number) {
    super('response body over the size cap');
    this.name = 'BodyTooLarge';
  }
}

/** The request's `timeoutMs` passed before the whole response was in. */
export class RequestTimedOut extends Error {
  constructor(readonly ms: number) {
    super(`no complete response within ${ms} ms`);
    this.name = 'RequestTimedOut';
  }
}

/**
 * One HTTP request over undici's dispatcher, its body collected as text. undici's `request` wraps each
 * response in a Readable stream, an async iterator and an abort-signal listener: a fifth of what each
 * /vote allocated (the callback and the service read), for bodies of a few hundred bytes read whole.
 * Errors are undici's own (a socket error, or its timeouts) or RequestTimedOut; redirects are never followed.
 */
export function requestText(url: string, request: TextRequest): Promise<TextResponse> {
  const { origin, path } = splitUrl(url);
  return new Promise<TextResponse>((resolve, reject) => {
    let settled = false;
    let abortRequest: ((reason?: Error) => void) | undefined;
    let timer: NodeJS.Timeout | undefined;
    const { signal } = request;
    // Settled at once, even while the request still waits for a connection (undici hands it the
    // abort function only once it is written, and onConnect drops it then): nothing waits for the queue.
    const end = (reason: Error) => {
      settle(reason);
      abortRequest?.(reason);
    };
    const onAbort = () => end(signal?.reason as Error);
    const settle = (error: unknown, response?: TextResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (response) resolve(response);
      else reject(error as Error);
    };
    const connected = (abort: (reason?: Error) => void) => {
      abortRequest = abort;
      if (settled) abort();
      else if (signal?.aborted) abort(signal.reason as Error);
    };
    if (signal?.aborted) return settle(signal.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    // The caller's signal and this bound share the request's one listener and one timer: a controller
    // per attempt to join them was a fifth of the signal objects each /vote made.
    const { timeoutMs } = request;
    if (timeoutMs !== undefined) timer = setTimeout(() => end(new RequestTimedOut(timeoutMs)), timeoutMs);
    try {
      const { method, headers, body } = request;
      const options = { origin, path, method, headers, body: body ?? null, ...timeouts(request) };
      agent.dispatch(options, textHandlers(request, end, settle, connected));
    } catch (error) {
      settle(error);
    }
  });
}

/**
 * undici's handlers for one response: its status and headers, then its body as text, up to the cap.
 * The exchange ends through `settle` (an answer or an error) or `end` (aborted with a reason); the
 * three are passed as they are, not in an object: one allocation less on every request.
 */
function textHandlers(
  request: TextRequest,
  end: (reason: Error) => void,
  settle: (error: unknown, response?: TextResponse) => void,
  connected: (abort: (reason?: Error) => void) => void,
): Dispatcher.DispatchHandlers {
  let status = 0;
  let headers: Record<string, string | string[]> = {};
  const chunks: Buffer[] = [];
  let size = 0;
  const tooLarge = () => end(new BodyTooLarge(status));
  return {
    onConnect: connected,
    onHeaders(statusCode, rawHeaders) {
      // 1xx: informational, the real response follows.
      if (statusCode < 200) return true;
      status = statusCode;
      request.onStatus?.(status);
      headers = headerRecord(rawHeaders);
      const declared = Number(headers['content-length'] ?? Number.NaN);
      if (Number.isFinite(declared) && declared > request.maxBytes) tooLarge();
      return true;
    },
    onData(chunk) {
      size += chunk.byteLength;
      if (size > request.maxBytes) {
        tooLarge();
        return false;
      }
      chunks.push(chunk);
      return true;
    },
    onComplete() {
      settle(undefined, { status, headers, text: Buffer.concat(chunks, size).toString('utf8') });
    },
    onError(error) {
      settle(error);
    },
  };
}

/** undici's own timers, unless `timeoutMs` bounds the whole exchange (0 turns them off). */
function timeouts({ timeoutMs, headersTimeout, bodyTimeout }: TextRequest) {
  if (timeoutMs !== undefined) return { headersTimeout: 0, bodyTimeout: 0 };
  return {
    ...(headersTimeout === undefined ? {} : { headersTimeout }),
    ...(bodyTimeout === undefined ? {} : { bodyTimeout }),
  };
}

/** `http://host:port/a/b?c` → origin and path, without a URL object per request. */
function splitUrl(url: string): { origin: string; path: string } {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  return slash === -1 ? { origin: url, path: '/' } : { origin: url.slice(0, slash), path: url.slice(slash) };
}

function headerRecord(raw: Buffer[] | string[] | null): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  if (!raw) return record;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toString().toLowerCase();
    const value = raw[i + 1]!.toString();
    const seen = record[name];
    record[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return record;
}
