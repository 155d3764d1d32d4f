// A stand-in for Top.gg's v1 vote list (github.com/top-gg/developer-docs api/v1/votes.mdx and
// resources/rate-limits.mdx), written from the docs: GET /v1/projects/@me/votes with a Bearer token,
// `startDate` or `cursor` (which wins), pages oldest first, a cursor on every page, an empty page at
// the end; 60 requests a minute per token, past which it answers 429 with `retry-after` and blocks
// the token for an hour, as Top.gg does. It counts what it was asked and what it refused. Also a
// member's latest vote, GET /v1/projects/@me/votes/<discord id>?source=discord: 404 when none runs.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { hostInUrl, listen } from '../src/core/listen.js';

const HOUR_MS = 3_600_000;

export interface StandInVote {
  memberId: string;
  /** created_at (ms). */
  at: number;
  /** expires_at (ms): 12 hours after `at` unless given. */
  until: number;
  weight: number;
}

export interface TopggStandInOptions {
  /** The project token it accepts. */
  token?: string;
  /** Votes per page (Top.gg does not say how many; small pages make a test page). */
  pageSize?: number;
  /** Requests a token may make in `windowMs` before the 429 and the hour's block. */
  limit?: number;
  windowMs?: number;
  now?: () => number;
}

export interface TopggStandIn {
  /** TOPGG_API_URL: the base without /v1. */
  readonly url: string;
  readonly token: string;
  /** Records a vote, as a member voting on the site would. */
  vote(memberId: string, options?: { at?: number; lengthMs?: number; weight?: number }): StandInVote;
  readonly votes: readonly StandInVote[];
  /** Requests it answered, any status. */
  readonly requests: number;
  /** Answers that were 429. */
  readonly tooMany: number;
  /** Answers with this status (the authorization, the cursor), for a test that checks each. */
  answered(status: number): number;
  /** Answers the next requests with this status (a 5xx outage, a revoked token); undefined: back to normal. */
  failWith(status: number | undefined): void;
  close(): Promise<void>;
}

/** Top.gg's own form: microseconds, which the bot must read as well as milliseconds. */
const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '000Z');

export async function startTopggStandIn(options: TopggStandInOptions = {}): Promise<TopggStandIn> {
  const token = options.token ?? 'topgg-standin-project-token-0123456789';
  const pageSize = options.pageSize ?? 20;
  const limit = options.limit ?? 60;
  const windowMs = options.windowMs ?? 60_000;
  const now = options.now ?? Date.now;
  const votes: StandInVote[] = [];
  const seen: number[] = [];
  const statuses = new Map<number, number>();
  let blockedUntil = 0;
  let failing: number | undefined;

  const answer = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };

  const limited = (): boolean => {
    const at = now();
    while (seen.length > 0 && seen[0]! <= at - windowMs) seen.shift();
    seen.push(at);
    if (seen.length > limit) blockedUntil = at + HOUR_MS;
    return at < blockedUntil;
  };

  const serve = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://standin');
    if (req.headers.authorization !== `Bearer ${token}`)
      return answer(res, 401, { type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'invalid token' });
    if (limited()) {
      const seconds = Math.ceil((blockedUntil - now()) / 1000);
      return answer(res, 429, { 'retry-after': seconds }, { 'retry-after': String(seconds) });
    }
    if (failing !== undefined) return answer(res, failing, { status: failing });
    const one = /^\/v1\/projects\/@me\/votes\/(\d+)$/.exec(url.pathname);
    if (req.method === 'GET' && one && url.searchParams.get('source') === 'discord') return latest(res, one[1]!);
    if (req.method !== 'GET' || url.pathname !== '/v1/projects/@me/votes') return answer(res, 404, { status: 404 });
    return answer(res, 200, page(url.searchParams));
  };

  const latest = (res: ServerResponse, memberId: string) => {
    const running = votes.filter((v) => v.memberId === memberId && v.until > now()).sort((a, b) => b.at - a.at)[0];
    if (!running) return answer(res, 404, { type: 'about:blank', title: 'Not Found', status: 404 });
    return answer(res, 200, { created_at: iso(running.at), expires_at: iso(running.until), weight: running.weight });
  };

  const page = (query: URLSearchParams) => {
    const cursor = query.get('cursor');
    const from = cursor === null ? Date.parse(query.get('startDate') ?? '') : Number(cursor.split('.')[0]);
    const offset = cursor === null ? 0 : Number(cursor.split('.')[1]);
    const listed = votes.filter((v) => v.at >= from).sort((a, b) => a.at - b.at);
    const data = listed.slice(offset, offset + pageSize).map((v) => ({
      user_id: `9${v.memberId}`,
      platform_id: v.memberId,
      weight: v.weight,
      created_at: iso(v.at),
      expires_at: iso(v.until),
    }));
    return { cursor: `${from}.${offset + data.length}`, data };
  };

  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => serve(req, res));
  });
  const { port } = await listen(server, 0, '127.0.0.1');
  return {
    url: `http://${hostInUrl('127.0.0.1')}:${port}`,
    token,
    vote(memberId, { at = now(), lengthMs = 12 * HOUR_MS, weight = 1 } = {}) {
      const vote = { memberId, at, until: at + lengthMs, weight };
      votes.push(vote);
      return vote;
    },
    votes,
    get requests() {
      return [...statuses.values()].reduce((sum, n) => sum + n, 0);
    },
    get tooMany() {
      return statuses.get(429) ?? 0;
    },
    answered: (status) => statuses.get(status) ?? 0,
    failWith(status) {
      failing = status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
