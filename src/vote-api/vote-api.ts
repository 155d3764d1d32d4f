import type { IncomingMessage, ServerResponse } from 'node:http';
import { isSnowflake } from '../api/index.js';
import { RETRY_AFTER_SECONDS, STORE_DEADLINE_MS } from '../config/webhook-limits.js';
import type { Logger } from '../core/log.js';
import { firstHeader } from '../core/request-body.js';
import { storeWithin } from '../store/within.js';
import { BadRequest, memberVoteAnswer, votesPageAnswer, type ApiLedger } from './answers.js';
import type { KeyCheck, KeyHolder } from './key-check.js';
import { OPENAPI_DOCUMENT } from './openapi.js';
import { KeyRateLimiter, type RateVerdict } from './rate-limit.js';

export interface VoteApiOptions {
  keys: Pick<KeyCheck, 'holder'>;
  /** One server's ledger. */
  ledger(guildId: string): ApiLedger;
  /** The server's streak grace (its /setup streak), so a streak here is the one /vote shows. */
  graceMs(guildId: string): number | Promise<number>;
  logger: Logger;
  limiter?: KeyRateLimiter;
  now?: () => number;
  storeDeadlineMs?: number;
}

const BASE = '/api/v1';
const DOCUMENT_PATH = `${BASE}/openapi.json`;
const MEMBER_VOTE = /^\/api\/v1\/guilds\/([^/]+)\/members\/([^/]+)\/vote$/;
const VOTES = /^\/api\/v1\/guilds\/([^/]+)\/votes$/;
const DOCUMENT_TEXT = JSON.stringify(OPENAPI_DOCUMENT);

/** What a route answers once its key is checked and counted: its JSON body. */
type Route = (api: VoteApiOptions, guildId: string, url: URL, now: number) => Promise<object>;

function routeOf(pathname: string): { guild: string; run: Route } | undefined {
  const member = MEMBER_VOTE.exec(pathname);
  if (member) {
    const userId = member[2]!;
    return {
      guild: member[1]!,
      run: async (api, guildId, _url, now) => {
        if (!isSnowflake(userId)) throw new BadRequest('member must be a user id (17 to 20 digits)');
        return memberVoteAnswer(api.ledger(guildId), userId, now, await api.graceMs(guildId));
      },
    };
  }
  const votes = VOTES.exec(pathname);
  if (votes)
    return { guild: votes[1]!, run: (api, guildId, url) => votesPageAnswer(api.ledger(guildId), url.searchParams) };
  return undefined;
}

/**
 * The "has voted?" API on the webhook receiver's port (docs/api.md): a key checked (401), counted
 * (429), bound to its one server (404 for any other, as for none), then the ledger read within the
 * store's deadline (503 past it). Keys are never logged; a refusal says nothing of other servers.
 */
export class VoteApi {
  readonly #limiter: KeyRateLimiter;
  readonly #now: () => number;

  constructor(private readonly options: VoteApiOptions) {
    this.#limiter = options.limiter ?? new KeyRateLimiter({ now: options.now });
    this.#now = options.now ?? Date.now;
  }

  /** Whether the path is the API's: everything under /api/v1. */
  owns(pathname: string): boolean {
    return pathname === BASE || pathname.startsWith(`${BASE}/`);
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://api');
    const route = url.pathname === DOCUMENT_PATH ? undefined : routeOf(url.pathname);
    if (url.pathname !== DOCUMENT_PATH && !route)
      return send(res, 404, { error: 'no such route: see /api/v1/openapi.json' });
    if (req.method !== 'GET') {
      res.setHeader('allow', 'GET');
      return send(res, 405, { error: 'method not allowed: the API answers GET' });
    }
    if (!route) return sendText(res, 200, DOCUMENT_TEXT);
    const deadline = this.options.storeDeadlineMs ?? STORE_DEADLINE_MS;
    let holder: KeyHolder | undefined;
    try {
      holder = await storeWithin(this.options.keys.holder(firstHeader(req, 'authorization')), deadline);
    } catch (err) {
      this.options.logger.warn({ err }, 'vote API: could not read the keys; answered 503');
      return unavailable(res);
    }
    if (!holder) {
      res.setHeader('www-authenticate', 'Bearer');
      return send(res, 401, { error: 'a key is needed: Authorization: Bearer <key from /setup api-key create>' });
    }
    const verdict = this.#limiter.take(holder.bucket);
    limitHeaders(res, verdict);
    if (!verdict.allowed) {
      res.setHeader('retry-after', String(verdict.retryAfterSeconds));
      return send(res, 429, { error: `too many requests: try again in ${verdict.retryAfterSeconds} s` });
    }
    // Another server's id is answered exactly as one no server has: a key tells nothing of others.
    if (route.guild !== holder.guildId) return send(res, 404, { error: 'no such server for this key' });
    const guildId = holder.guildId;
    try {
      return send(res, 200, await storeWithin(route.run(this.options, guildId, url, this.#now()), deadline));
    } catch (err) {
      if (err instanceof BadRequest) return send(res, 400, { error: err.message });
      this.options.logger.warn(
        { err, guildId, route: url.pathname },
        'vote API: the ledger could not be read; answered 503',
      );
      return unavailable(res);
    }
  }
}

function limitHeaders(res: ServerResponse, verdict: RateVerdict): void {
  res.setHeader('x-ratelimit-limit', String(verdict.limit));
  res.setHeader('x-ratelimit-remaining', String(verdict.remaining));
  res.setHeader('x-ratelimit-reset', String(verdict.resetSeconds));
}

function unavailable(res: ServerResponse): void {
  res.setHeader('retry-after', String(RETRY_AFTER_SECONDS));
  send(res, 503, { error: 'the store did not answer in time; try again shortly' });
}

function send(res: ServerResponse, status: number, body: object): void {
  sendText(res, status, JSON.stringify(body));
}

function sendText(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(text);
}
