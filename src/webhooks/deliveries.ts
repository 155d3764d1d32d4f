import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeAfterAnswer, firstHeader, readBody } from '../core/request-body.js';
import type { Logger } from '../core/log.js';
import type { DeliveryOutcome, EventStore } from '../store/index.js';
import type { DeliveryLog } from './delivery-log.js';
import type { EventInbox } from './event-inbox.js';
import {
  MAX_PENDING_WRITES,
  RETRY_AFTER_SECONDS,
  STORE_DEADLINE_MS,
  WEBHOOK_MAX_BODY_BYTES,
} from '../config/webhook-limits.js';
import { readEvent } from '../api/webhook-payloads.js';
import { listEventKind, type AdaptedSiteId } from '../lists/index.js';
import { checkListDelivery, type ListingTarget } from './list-delivery.js';
import { loggedPath } from './logged-path.js';
import type { RefusalLog, RefusalReason } from './refusals.js';
import { storeWithin } from '../store/within.js';
import { tokenMatches } from './token.js';

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
  /** Requests on another route of the same port (the vote API, API_ENABLED): what it owns, it answers. */
  api?: SideRoutes;
}

interface SideRoutes {
  owns(pathname: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
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

/** Compared against when no token is known: random per process, so no presented value can match. */
const UNGUESSABLE = randomBytes(32).toString('hex');

/** What the receiver does with each request: checked, read, stored, answered. */
export class Deliveries {
  private readonly now: () => number;
  private readonly storeDeadlineMs: number;
  private pendingWrites = 0;

  constructor(
    private readonly options: ReceiverOptions,
    private readonly refusals: RefusalLog,
  ) {
    this.now = options.now ?? Date.now;
    this.storeDeadlineMs = options.storeDeadlineMs ?? STORE_DEADLINE_MS;
  }

  private log(guildId: string, event: string, outcome: DeliveryOutcome): void {
    this.options.deliveries?.record({ guildId, at: this.now(), event, outcome });
  }

  /** Answers what is refused before any token, secret or body is looked at: another method, a full write queue. */
  private refusedAtTheDoor(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'POST') {
      this.refusals.refuse('method', { method: req.method });
      res.setHeader('allow', 'POST');
      answer(res, 405, 'method not allowed');
      return true;
    }
    if (this.pendingWrites >= MAX_PENDING_WRITES) {
      this.refusals.refuse('store_unavailable', { problem: `${this.pendingWrites} writes still waiting on the store` });
      unavailable(res);
      return true;
    }
    return false;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://receiver');
    const listing = this.options.targets.listingFor?.(url.pathname);
    if (listing) return this.handleListing(req, res, listing);
    const guildId = this.options.targets.serverFor(url.pathname);
    if (guildId === undefined) {
      this.refusals.refuse('not_found', { path: loggedPath(url.pathname, this.options.path) });
      return answer(res, 404, 'not found');
    }
    if (this.refusedAtTheDoor(req, res)) return;
    if (!(await this.tokenAccepted(req, res, guildId, url.pathname))) return;
    const body = await this.readJsonObject(req, res, guildId);
    if (body === undefined) return;
    const read = readEvent(body);
    if (!read.ok) {
      // A 4xx would make Guilds drop it anyway; 200 says "received", the log says why it was ignored.
      this.refusals.refuse('ignored_event', { problem: read.problem });
      this.log(guildId, knownKind(body), read.unknownKind ? 'ignored' : 'malformed');
      return answer(res, 200, 'ignored');
    }
    if (read.event.guildId !== guildId) {
      // A body for another server than its address: refused (4xx, so Guilds does not retry), nothing stored.
      this.refusals.refuse('other_guild', { guildId, bodyGuildId: read.event.guildId, event: read.event.event });
      this.log(guildId, read.event.event, 'wrong_server');
      return answer(res, 400, 'the delivery names another server than its address');
    }
    // A write that misses the deadline is not cancelled: it may still land after the 503, and
    // Guilds' retry then stores the event a second time. That is safe: deliveries are at least
    // once anyway, and handling drops repeats (one post per review, one announcement per vote period).
    await this.storeAndAnswer(res, guildId, read.event.event, read.event);
  }

  /** Whether the delivery carries the server's token; refused (answered) when it does not. */
  private async tokenAccepted(
    req: IncomingMessage,
    res: ServerResponse,
    guildId: string,
    pathname: string,
  ): Promise<boolean> {
    let known: string | undefined;
    try {
      known = await storeWithin(
        Promise.resolve(this.options.targets.tokenFor(guildId, pathname)),
        this.storeDeadlineMs,
      );
    } catch (err) {
      this.refusals.refuse('store_unavailable', { err, guildId });
      unavailable(res);
      return false;
    }
    // An unknown server is compared with a token no delivery carries: answered like a wrong token,
    // in the same time, so the answer does not tell which server ids exist.
    if (tokenMatches(firstHeader(req, 'authorization'), known ?? UNGUESSABLE)) return true;
    this.refusals.refuse('token', { remote: req.socket.remoteAddress, guildId });
    // Only a server with a token gets a line: ids of servers that are not set up would let anyone
    // write rows for any id, and their admins cannot read /setup status anyway.
    if (known !== undefined) this.log(guildId, UNREAD_EVENT, 'wrong_token');
    answer(res, 401, 'unauthorized');
    return false;
  }

  /** The body as a JSON object; undefined once refused (answered), or when the sender is gone. */
  private async readJsonObject(
    req: IncomingMessage,
    res: ServerResponse,
    guildId: string,
  ): Promise<object | undefined> {
    const got = await readBody(req, WEBHOOK_MAX_BODY_BYTES);
    if (got.kind === 'too_large') {
      this.refusals.refuse('too_large', { declaredBytes: req.headers['content-length'] });
      this.log(guildId, UNREAD_EVENT, 'malformed');
      tooLarge(req, res);
      return undefined;
    }
    // The sender went away or was cut off by the request timeout (counted there): no one to answer.
    if (got.kind === 'gone') return undefined;
    let body: unknown;
    try {
      body = JSON.parse(got.body.toString('utf8'));
    } catch {
      this.refusals.refuse('malformed', { problem: 'not JSON' });
      this.log(guildId, UNREAD_EVENT, 'malformed');
      answer(res, 400, 'malformed JSON');
      return undefined;
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      this.refusals.refuse('malformed', { problem: 'not a JSON object' });
      this.log(guildId, UNREAD_EVENT, 'malformed');
      answer(res, 400, 'the body must be a JSON object');
      return undefined;
    }
    return body;
  }

  /**
   * A list besides Guilds: its listing must be set up (else 404, as for no such address), the raw
   * bytes pass the site's verify() before anything parses them (else 401), then the body is read
   * and must name this server (else 400). Stored and answered 200 like a Guilds event.
   */
  private async handleListing(req: IncomingMessage, res: ServerResponse, target: ListingTarget): Promise<void> {
    const { guildId, site } = target;
    if (this.refusedAtTheDoor(req, res)) return;
    let check: { secret: string; voteLengthMs?: number } | undefined;
    try {
      const asked = Promise.resolve(this.options.targets.listingCheck?.(guildId, site));
      check = await storeWithin(asked, this.storeDeadlineMs);
    } catch (err) {
      this.refusals.refuse('store_unavailable', { err, guildId, site });
      return unavailable(res);
    }
    if (check === undefined) {
      this.refusals.refuse('not_found', { guildId, site });
      return answer(res, 404, 'not found');
    }
    const read = await readBody(req, WEBHOOK_MAX_BODY_BYTES);
    if (read.kind === 'too_large') {
      this.refusals.refuse('too_large', { declaredBytes: req.headers['content-length'], site });
      this.log(guildId, `${site} ?`, 'malformed');
      return tooLarge(req, res);
    }
    if (read.kind === 'gone') return;
    const verdict = checkListDelivery(target, req.headers, read.body, check, this.now());
    if (!verdict.ok) {
      const detail = verdict.status === 401 ? { remote: req.socket.remoteAddress } : { problem: verdict.problem };
      this.refusals.refuse(verdict.refusal, { ...detail, guildId, site });
      this.log(guildId, `${site} ?`, verdict.outcome);
      return answer(res, verdict.status, verdict.message);
    }
    await this.storeAndAnswer(res, guildId, listEventKind(verdict.event), verdict.event);
  }

  /** Stores the event, then answers 200; a store that fails or misses the deadline gets a 503, which senders retry. */
  private async storeAndAnswer(res: ServerResponse, guildId: string, kind: string, payload: object): Promise<void> {
    if (this.pendingWrites >= MAX_PENDING_WRITES) {
      this.refusals.refuse('store_unavailable', { problem: `${this.pendingWrites} writes still waiting on the store` });
      this.log(guildId, kind, 'unavailable');
      return unavailable(res);
    }
    this.pendingWrites += 1;
    // Async so that a store throwing at once is a failed write (503) like any other.
    const write = (async () => this.options.store.addEvent(guildId, kind, payload, this.now()))();
    void write.then(
      () => (this.pendingWrites -= 1),
      () => (this.pendingWrites -= 1),
    );
    let id: number;
    try {
      id = await storeWithin(write, this.storeDeadlineMs);
    } catch (err) {
      this.refusals.refuse('store_unavailable', { err });
      this.log(guildId, kind, 'unavailable');
      return unavailable(res);
    }
    answer(res, 200, 'ok');
    this.options.logger.debug({ eventId: id, event: kind }, 'webhook event stored');
    this.options.inbox.wake();
  }
}

/** The log's event column when the body named no kind the bot knows: the body's own text is never kept. */
const UNREAD_EVENT = '?';
const KINDS: ReadonlySet<unknown> = new Set(['vote', 'review', 'reply']);

function knownKind(body: object): string {
  const kind = (body as { event?: unknown }).event;
  return KINDS.has(kind) ? String(kind) : UNREAD_EVENT;
}

export function answer(res: ServerResponse, status: number, message: string): void {
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
