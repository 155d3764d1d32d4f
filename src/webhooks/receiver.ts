import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { hostInUrl, listen } from '../core/listen.js';
import { closeAfterAnswer, readBody } from '../core/request-body.js';
import type { Logger } from '../core/log.js';
import type { DeliveryOutcome, EventStore } from '../store/index.js';
import type { DeliveryLog } from './delivery-log.js';
import type { EventInbox } from './event-inbox.js';
import {
  CONNECTIONS_CHECK_MS,
  DEFAULT_MAX_CONNECTIONS,
  HEADERS_TIMEOUT_MS,
  MAX_PENDING_WRITES,
  REQUEST_TIMEOUT_MS,
  RETRY_AFTER_SECONDS,
  STORE_DEADLINE_MS,
  WEBHOOK_MAX_BODY_BYTES,
} from '../config/webhook-limits.js';
import { readEvent } from '../api/webhook-payloads.js';
import { listEventKind, type AdaptedSiteId } from '../lists/index.js';
import { checkListDelivery, type ListingTarget } from './list-delivery.js';
import { loggedPath } from './logged-path.js';
import { RefusalLog, type RefusalReason } from './refusals.js';
import { storeWithin } from '../store/within.js';
import { tokenMatches } from './token.js';

export { WEBHOOK_MAX_BODY_BYTES };

export interface ReceiverOptions {
  host: string | undefined;
  port: number;
  /** The base path (WEBHOOK_PATH), for the address the receiver reports. */
  path: string;
  /** Which server a delivery is for and the token it must carry. */
  targets: WebhookTargets;
  store: Pick<EventStore, 'addEvent'>;
  logger: Logger;
  /** Woken after an event is stored and answered: handling happens from the store. */
  inbox: EventInbox;
  /** Concurrent connections kept (WEBHOOK_MAX_CONNECTIONS); past it new ones are closed at once. */
  maxConnections?: number;
  /** The server's delivery log (/setup status): what the receiver refused; handling adds what it stored. */
  deliveries?: Pick<DeliveryLog, 'record'>;
  /** Each refusal as it happens (a metric); the log gets them in aggregate. */
  onRefused?: (reason: RefusalReason) => void;
  /** How long a delivery waits for the store before it is answered 503. */
  storeDeadlineMs?: number;
  /**
   * The bounds on what a stranger holds (webhook-limits.ts) in place of their defaults: a test of the
   * mechanism runs them in fractions of a second.
   */
  timeouts?: { headersMs?: number; requestMs?: number; checkMs?: number };
  refusalLogIntervalMs?: number;
  now?: () => number;
}

/**
 * Where deliveries go: `<path>/<server id>` for every server, and in single-server mode `<path>` for
 * the one server too (the address an existing install gave Guilds).
 */
export interface WebhookTargets {
  /** The server a request path names; undefined: no such path (404). */
  serverFor(pathname: string): string | undefined;
  /** The token that server's deliveries carry; undefined for a server with none or none known. May read the store. */
  tokenFor(guildId: string, pathname: string): string | undefined | Promise<string | undefined>;
  /** The listing a path names (`<path>/<server id>/<site id>`), if it names one. */
  listingFor?(pathname: string): ListingTarget | undefined;
  /** That listing's secret and vote length; undefined when the server is not set up on the list. May read the store. */
  listingCheck?(guildId: string, site: AdaptedSiteId): Promise<{ secret: string; voteLengthMs?: number } | undefined>;
}

export interface Receiver {
  readonly url: string;
  close(): Promise<void>;
}

/** Compared against when no token is known: random per process, so no presented value can match. */
const UNGUESSABLE = randomBytes(32).toString('hex');

/**
 * Guilds' webhook receiver. An accepted event is in the store before the 200 goes out, so a
 * crash after answering loses nothing; the answer never waits on Discord, and waits on the store
 * only for a second: a stalled store gets a 503, which Guilds retries.
 */
export async function startReceiver(options: ReceiverOptions): Promise<Receiver> {
  const now = options.now ?? Date.now;
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  const storeDeadlineMs = options.storeDeadlineMs ?? STORE_DEADLINE_MS;
  const refusals = new RefusalLog(options.logger, {
    intervalMs: options.refusalLogIntervalMs,
    onRefused: options.onRefused,
  });
  let pendingWrites = 0;
  const logDelivery = (guildId: string, event: string, outcome: DeliveryOutcome) =>
    options.deliveries?.record({ guildId, at: now(), event, outcome });

  const server: Server = createServer(
    {
      headersTimeout: options.timeouts?.headersMs ?? HEADERS_TIMEOUT_MS,
      requestTimeout: options.timeouts?.requestMs ?? REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: options.timeouts?.checkMs ?? CONNECTIONS_CHECK_MS,
    },
    (req, res) => {
      void handle(req, res).catch((err: unknown) => {
        options.logger.error({ err }, 'webhook delivery failed');
        answer(res, 500, 'internal error');
      });
    },
  );
  // Past the cap Node accepts and closes at once (the 'drop' event), so held connections can
  // never take the file descriptors /healthz, Discord and the store need.
  server.maxConnections = maxConnections;
  server.on('drop', () => refusals.refuse('connection_cap', { maxConnections }));
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => refuseClient(err, socket, refusals));

  /** Answers what is refused before any token, secret or body is looked at: another method, a full write queue. */
  function refusedAtTheDoor(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'POST') {
      refusals.refuse('method', { method: req.method });
      res.setHeader('allow', 'POST');
      answer(res, 405, 'method not allowed');
      return true;
    }
    if (pendingWrites >= MAX_PENDING_WRITES) {
      refusals.refuse('store_unavailable', { problem: `${pendingWrites} writes still waiting on the store` });
      unavailable(res);
      return true;
    }
    return false;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://receiver');
    const listing = options.targets.listingFor?.(url.pathname);
    if (listing) return handleListing(req, res, listing);
    const guildId = options.targets.serverFor(url.pathname);
    if (guildId === undefined) {
      refusals.refuse('not_found', { path: loggedPath(url.pathname, options.path) });
      return answer(res, 404, 'not found');
    }
    if (refusedAtTheDoor(req, res)) return;
    let known: string | undefined;
    try {
      known = await storeWithin(Promise.resolve(options.targets.tokenFor(guildId, url.pathname)), storeDeadlineMs);
    } catch (err) {
      refusals.refuse('store_unavailable', { err, guildId });
      return unavailable(res);
    }
    // An unknown server is compared with a token no delivery carries: answered like a wrong token,
    // in the same time, so the answer does not tell which server ids exist.
    const expected = known ?? UNGUESSABLE;
    if (!tokenMatches(header(req, 'authorization'), expected)) {
      refusals.refuse('token', { remote: req.socket.remoteAddress, guildId });
      // Only a server with a token gets a line: ids of servers that are not set up would let anyone
      // write rows for any id, and their admins cannot read /setup status anyway.
      if (known !== undefined) logDelivery(guildId, UNREAD_EVENT, 'wrong_token');
      return answer(res, 401, 'unauthorized');
    }
    const got = await readBody(req, WEBHOOK_MAX_BODY_BYTES);
    if (got.kind === 'too_large') {
      refusals.refuse('too_large', { declaredBytes: req.headers['content-length'] });
      logDelivery(guildId, UNREAD_EVENT, 'malformed');
      return tooLarge(req, res);
    }
    // The sender went away or was cut off by the request timeout (counted there): no one to answer.
    if (got.kind === 'gone') return;
    const raw = got.body.toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      refusals.refuse('malformed', { problem: 'not JSON' });
      logDelivery(guildId, UNREAD_EVENT, 'malformed');
      return answer(res, 400, 'malformed JSON');
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      refusals.refuse('malformed', { problem: 'not a JSON object' });
      logDelivery(guildId, UNREAD_EVENT, 'malformed');
      return answer(res, 400, 'the body must be a JSON object');
    }

    const read = readEvent(body);
    if (!read.ok) {
      // A 4xx would make Guilds drop it anyway; 200 says "received", the log says why it was ignored.
      refusals.refuse('ignored_event', { problem: read.problem });
      logDelivery(guildId, knownKind(body), read.unknownKind ? 'ignored' : 'malformed');
      return answer(res, 200, 'ignored');
    }
    if (read.event.guildId !== guildId) {
      // A body for another server than its address: refused (4xx, so Guilds does not retry), nothing stored.
      refusals.refuse('other_guild', { guildId, bodyGuildId: read.event.guildId, event: read.event.event });
      logDelivery(guildId, read.event.event, 'wrong_server');
      return answer(res, 400, 'the delivery names another server than its address');
    }
    // A write that misses the deadline is not cancelled: it may still land after the 503, and
    // Guilds' retry then stores the event a second time. That is safe: deliveries are at least
    // once anyway, and handling drops repeats (one post per review, one announcement per vote period).
    await storeAndAnswer(res, guildId, read.event.event, read.event);
  }

  /**
   * A list besides Guilds: its listing must be set up (else 404, as for no such address), the raw
   * bytes pass the site's verify() before anything parses them (else 401), then the body is read
   * and must name this server (else 400). Stored and answered 200 like a Guilds event.
   */
  async function handleListing(req: IncomingMessage, res: ServerResponse, target: ListingTarget): Promise<void> {
    const { guildId, site } = target;
    if (refusedAtTheDoor(req, res)) return;
    let check: { secret: string; voteLengthMs?: number } | undefined;
    try {
      check = await storeWithin(Promise.resolve(options.targets.listingCheck?.(guildId, site)), storeDeadlineMs);
    } catch (err) {
      refusals.refuse('store_unavailable', { err, guildId, site });
      return unavailable(res);
    }
    if (check === undefined) {
      refusals.refuse('not_found', { guildId, site });
      return answer(res, 404, 'not found');
    }
    const read = await readBody(req, WEBHOOK_MAX_BODY_BYTES);
    if (read.kind === 'too_large') {
      refusals.refuse('too_large', { declaredBytes: req.headers['content-length'], site });
      logDelivery(guildId, `${site} ?`, 'malformed');
      return tooLarge(req, res);
    }
    if (read.kind === 'gone') return;
    const rawBody = read.body;
    const verdict = checkListDelivery(target, req.headers, rawBody, check, now());
    if (!verdict.ok) {
      const detail = verdict.status === 401 ? { remote: req.socket.remoteAddress } : { problem: verdict.problem };
      refusals.refuse(verdict.refusal, { ...detail, guildId, site });
      logDelivery(guildId, `${site} ?`, verdict.outcome);
      return answer(res, verdict.status, verdict.message);
    }
    await storeAndAnswer(res, guildId, listEventKind(verdict.event), verdict.event);
  }

  /** Stores the event, then answers 200; a store that fails or misses the deadline gets a 503, which senders retry. */
  async function storeAndAnswer(res: ServerResponse, guildId: string, kind: string, payload: object): Promise<void> {
    if (pendingWrites >= MAX_PENDING_WRITES) {
      refusals.refuse('store_unavailable', { problem: `${pendingWrites} writes still waiting on the store` });
      logDelivery(guildId, kind, 'unavailable');
      return unavailable(res);
    }
    pendingWrites += 1;
    // Async so that a store throwing at once is a failed write (503) like any other.
    const write = (async () => options.store.addEvent(guildId, kind, payload, now()))();
    void write.then(
      () => (pendingWrites -= 1),
      () => (pendingWrites -= 1),
    );
    let id: number;
    try {
      id = await storeWithin(write, storeDeadlineMs);
    } catch (err) {
      refusals.refuse('store_unavailable', { err });
      logDelivery(guildId, kind, 'unavailable');
      return unavailable(res);
    }
    answer(res, 200, 'ok');
    options.logger.debug({ eventId: id, event: kind }, 'webhook event stored');
    options.inbox.wake();
  }

  const address = await listen(
    server,
    options.port,
    options.host,
    (reason) =>
      `Could not receive webhooks on ${hostInUrl(options.host ?? '0.0.0.0')}:${options.port} (${reason}): choose a free WEBHOOK_PORT (or stop what holds it), and a WEBHOOK_HOST this machine has.`,
  );
  return {
    url: `http://${hostInUrl(address.address)}:${address.port}${options.path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        refusals.close();
      }),
  };
}

/** The log's event column when the body named no kind the bot knows: the body's own text is never kept. */
const UNREAD_EVENT = '?';
const KINDS: ReadonlySet<unknown> = new Set(['vote', 'review', 'reply']);

function knownKind(body: object): string {
  const kind = (body as { event?: unknown }).event;
  return KINDS.has(kind) ? String(kind) : UNREAD_EVENT;
}

/** Raw answers for connections Node refused before a request object existed, as Node itself sends them. */
const CLIENT_ERROR_ANSWERS: Readonly<Record<string, string>> = {
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
};

/**
 * Node's own handling of a bad or timed-out connection (answer if nothing was sent yet, then
 * close), with the refusal counted: without a listener Node does the same silently.
 */
function refuseClient(err: NodeJS.ErrnoException, socket: Duplex, refusals: RefusalLog): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const timedOut = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  refusals.refuse(timedOut ? 'timeout' : 'bad_request', timedOut ? {} : { problem: err.code });
  // The response in progress on this socket, if any (Node's own field): a started answer must not be corrupted.
  const inProgress = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  if (!inProgress?.headersSent) {
    const status = CLIENT_ERROR_ANSWERS[err.code ?? ''] ?? '400 Bad Request';
    socket.write(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  }
  socket.destroy();
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function answer(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(status === 200 ? { ok: true, message } : { error: message }));
}

/** Refuses a body over the cap, closing the connection without reading the rest of it. */
function tooLarge(req: IncomingMessage, res: ServerResponse): void {
  if (res.headersSent || res.destroyed) return;
  closeAfterAnswer(req, res);
  answer(res, 413, 'body too large');
}

function unavailable(res: ServerResponse): void {
  res.setHeader('retry-after', String(RETRY_AFTER_SECONDS));
  answer(res, 503, 'could not store the event now; retry');
}
