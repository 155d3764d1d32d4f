import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { RouteName } from '../api/types.js';
import { hostInUrl, listen } from '../core/listen.js';
import type { Answer } from './answer.js';
import { jsonAnswer, UNAUTHORISED } from './answer.js';
import { FaultTable, faultAnswer } from './faults.js';
import { RateLimitWindow } from './rate-limit.js';
import { RequestLog } from './request-log.js';
import { answerRoute, matchRoute } from './routes.js';
import { bundledSeed, rebaseSeed } from './seed.js';
import { SandboxStore } from './store.js';
import type { Fault, Sandbox, SandboxOptions } from './types.js';

const MAX_BODY_BYTES = 1024 * 1024;

/** Starts the sandbox service on loopback; port 0 (the default) picks a free one. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const apiKey = options.apiKey ?? 'sandbox-api-key';
  const appId = options.appId ?? 'sandbox-app-id';
  // Node lower-cases incoming header names, which gives HTTP's case-insensitive match for free.
  const prefix = (options.headerPrefix ?? 'Service').toLowerCase();
  const keyHeader = `${prefix}-api-key`;
  const appIdHeader = `${prefix}-app-id`;
  const seed = options.seed ?? bundledSeed;

  const store = new SandboxStore();
  store.load(rebaseSeed(seed));
  const faults = new FaultTable();
  const log = new RequestLog(options.maxLog);
  const timers = new Set<NodeJS.Timeout>();
  const limits: Limits = { current: options.rateLimit && new RateLimitWindow(options.rateLimit) };
  const startedAt = performance.now();

  const pairs = [{ apiKey, appId }, ...(options.moreCredentials ?? [])];
  /** The app id of the accepted pair the request carries; undefined when it carries none. */
  const credentialsOf = (req: IncomingMessage) =>
    pairs.find((pair) => req.headers[keyHeader] === pair.apiKey && req.headers[appIdHeader] === pair.appId)?.appId;

  const parts: ServeParts = { store, faults, log, limits, startedAt, timers, credentialsOf };
  const server = createServer((req, res) => {
    serve(req, res, parts).catch((error: unknown) => {
      if (res.destroyed) return;
      if (!res.headersSent) send(res, jsonAnswer(500, { error: 'Internal Server Error' }));
      else res.destroy(error instanceof Error ? error : undefined);
    });
  });
  const { port } = await listen(server, options.port ?? 0, host);

  return {
    baseUrl: `http://${hostInUrl(host)}:${port}/v1`,
    apiKey,
    appId,
    get requests() {
      return log.entries;
    },
    requestCount: (route?: RouteName) => log.count(route),
    setFault: (route: RouteName | '*', fault: Fault) => faults.set(route, fault),
    clearFaults: () => faults.clear(),
    setRateLimit(limitOptions) {
      limits.current = limitOptions ? new RateLimitWindow(limitOptions) : undefined;
    },
    get violations() {
      return limits.current?.violations ?? 0;
    },
    reset() {
      limits.current = options.rateLimit && new RateLimitWindow(options.rateLimit);
      store.load(rebaseSeed(seed));
      faults.clear();
      log.clear();
    },
    setVote: (userId, remainingMs) => store.setVote(userId, remainingMs),
    setVoteFromFirstRead: (userId, runsForMs) => store.setVoteFromFirstRead(userId, runsForMs),
    setReview: (review) => store.setReview(review),
    deleteReview: (authorId) => store.deleteReview(authorId),
    getReviewById(reviewId) {
      const review = store.reviewById(reviewId);
      return review && { ...review };
    },
    repliesTo: (reviewId) => store.repliesTo(reviewId),
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Idle keep-alive sockets would otherwise hold the server (and Jest) open.
        server.closeAllConnections();
      });
    },
  };
}

/** The rate limit now in force: setRateLimit and reset replace it. */
interface Limits {
  current: RateLimitWindow | undefined;
}

/** What answering one request reads and writes: the sandbox's data, faults, log and limits. */
interface ServeParts {
  store: SandboxStore;
  faults: FaultTable;
  log: RequestLog;
  limits: Limits;
  startedAt: number;
  timers: Set<NodeJS.Timeout>;
  /** The app id of the accepted pair the request carries; undefined when it carries none. */
  credentialsOf(req: IncomingMessage): string | undefined;
}

async function serve(req: IncomingMessage, res: ServerResponse, parts: ServeParts): Promise<void> {
  const { store, faults, log, limits, startedAt, timers, credentialsOf } = parts;
  const method = req.method ?? 'GET';
  const { body, tooLarge } = await readBody(req);
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const match = matchRoute(method, url.pathname);
  const at = performance.now() - startedAt;
  const usedAppId = credentialsOf(req);
  log.record({ route: match.route, method, path: req.url ?? '/', headers: req.headers, body, appId: usedAppId, at });

  // The real service counts every request it receives, before anything else happens to it.
  const limit = limits.current?.take(performance.now());
  if (limit && !limit.allowed) {
    send(res, { ...jsonAnswer(429, { error: 'You are being rate limited' }), headers: limit.headers });
    return;
  }

  // Faults model a broken network or service, so they come before the credentials check.
  const fault = faults.take(match.route);
  if (fault?.latencyMs) await wait(fault.latencyMs, timers);
  if (fault?.reset) {
    req.socket.destroy();
    return;
  }
  if (fault?.endless) return endless(res);
  const answered = (fault && faultAnswer(fault)) ?? serviceAnswer();
  const answer = limit ? { ...answered, headers: { ...answered.headers, ...limit.headers } } : answered;
  if (fault?.trickleMs) trickle(res, answer, fault.trickleMs, timers);
  else send(res, answer);

  function serviceAnswer(): Answer {
    if (usedAppId === undefined) return UNAUTHORISED;
    if (tooLarge) return jsonAnswer(413, { error: 'Payload Too Large' });
    return answerRoute(match, body, store);
  }
}

/** A wait the sandbox's close cancels. */
function wait(ms: number, timers: Set<NodeJS.Timeout>): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      resolve();
    }, ms);
    timers.add(timer);
  });
}

async function readBody(req: IncomingMessage): Promise<{ body: string; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  return { body: Buffer.concat(chunks).toString('utf8'), tooLarge: size > MAX_BODY_BYTES };
}

function headersFor(answer: Answer, body: Buffer): Record<string, string | number> {
  const contentType = 'application/json; charset=utf-8';
  return { 'Content-Type': contentType, 'Content-Length': body.length, ...answer.headers };
}

function send(res: ServerResponse, answer: Answer): void {
  const body = Buffer.from(answer.body, 'utf8');
  res.writeHead(answer.status, headersFor(answer, body));
  res.end(body);
}

/** A body with no end: written as fast as the client reads it, until it hangs up. */
function endless(res: ServerResponse): void {
  const chunk = Buffer.from(`${'{"userId":"284102390141648897","remaining":1,"discord":true},'.repeat(1024)}`);
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
  res.write('{"totalVotes":1,"monthlyVotes":1,"votes":[');
  const pump = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', pump);
  };
  pump();
}

/** Writes the body one byte every `everyMs`: a slow link, not a slow service. */
function trickle(res: ServerResponse, answer: Answer, everyMs: number, timers: Set<NodeJS.Timeout>): void {
  const body = Buffer.from(answer.body, 'utf8');
  res.writeHead(answer.status, headersFor(answer, body));
  let sent = 0;
  const timer = setInterval(() => {
    if (sent >= body.length || res.destroyed) {
      clearInterval(timer);
      timers.delete(timer);
      if (!res.destroyed) res.end();
      return;
    }
    res.write(body.subarray(sent, sent + 1));
    sent += 1;
  }, everyMs);
  timers.add(timer);
  res.once('close', () => {
    clearInterval(timer);
    timers.delete(timer);
  });
}
