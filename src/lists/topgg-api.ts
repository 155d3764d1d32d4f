// Top.gg's v1 API, the one route the bot reads: a project's votes, to take the votes its webhook
// could not deliver while the bot was down. Facts, from github.com/top-gg/developer-docs:
// - api/v1/votes.mdx: GET /v1/projects/@me/votes with `Authorization: Bearer <project token>`;
//   `startDate` (ISO 8601, at most a year back) or `cursor` (which then wins) on every request; the
//   answer `{cursor, data: [{user_id, platform_id, weight, created_at, expires_at}]}`, oldest first,
//   platform_id the voter's Discord id; page with the cursor "until you receive an empty data array".
// - resources/rate-limits.mdx: 100 requests a second on all routes, 60 a minute on the stricter ones;
//   breaking either answers 429 (`retry-after` in seconds, in the body) and blocks the token an hour.
//   Which routes count as stricter is not said of /projects: the bot holds them all to 60 a minute.
// Left open: whether `startDate` is inclusive (a vote read twice is taken once by the ledger).
import { setTimeout as delay } from 'node:timers/promises';
import { requestText, type TextResponse } from '../core/http-text.js';
import type { RequestWindow } from '../core/request-window.js';
import { isSnowflake } from '../core/snowflake.js';
import { clampWeight } from './site.js';
import { topgg, TOPGG_WEIGHTS } from './topgg.js';

/** The one list whose missed votes the bot reads back, for the code outside src/lists that acts on it. */
export const VOTE_API_SITE = topgg.id;

/** One vote as the API lists it, read into the ledger's terms (ms). */
export interface TopggVote {
  memberId: string;
  at: number;
  until: number;
  weight: number;
  weightSent?: number;
}

/** Why a read stopped: each kind has its own handling (docs/lists.md, "Votes missed while down"). */
export type TopggFailure =
  | { kind: 'refused'; status: number } // 401/403 and other 4xx: the token or project is wrong
  | { kind: 'limited'; retryAfterMs: number } // 429: the token is blocked
  | { kind: 'transient'; reason: string }; // network, timeout, 408, 5xx, an answer that is not the documented shape

export class TopggApiError extends Error {
  constructor(readonly failure: TopggFailure) {
    super(`Top.gg API: ${failure.kind === 'transient' ? failure.reason : failure.kind}`);
    this.name = 'TopggApiError';
  }
}

export interface TopggApiOptions {
  /** TOPGG_API_URL, without /v1. */
  baseUrl: string;
  /** The process's one limit on requests to Top.gg, shared by every server's token. */
  window: RequestWindow;
  timeoutMs?: number;
  /** The wait for the window's next slot (tests move a clock instead). */
  sleep?: (ms: number) => Promise<void>;
}

/** How far back a read may start: `startDate` "cannot be more than one year in the past" (a day's margin). */
const OLDEST_START_MS = 364 * 24 * 3_600_000;
/** A 429 with no usable retry-after: the documented block. */
const BLOCK_MS = 3_600_000;
const MAX_BYTES = 4 * 1024 * 1024;

/** The project's votes as Top.gg lists them, read through one shared limit. */
export class TopggApi {
  constructor(private readonly options: TopggApiOptions) {}

  /**
   * Every vote since `since` (ms), page by page: `take` gets each page as it comes, so a long read
   * keeps what it read before a failure. Ends at an empty page, or a cursor that does not move.
   * @example await api.votesSince(token, Date.now() - 12 * 3_600_000, (votes) => ledger.take(votes));
   */
  async votesSince(
    token: string,
    since: number,
    take: (votes: TopggVote[]) => Promise<void>,
    now: number = Date.now(),
    /** Ends the read at once (the process stops): its wait for a slot, its request. */
    signal?: AbortSignal,
  ): Promise<void> {
    const start = new Date(Math.max(since, now - OLDEST_START_MS)).toISOString();
    let query = `startDate=${encodeURIComponent(start)}`;
    for (;;) {
      const page = readPage(await this.#get(token, `/v1/projects/@me/votes?${query}`, { signal }));
      if (page.votes.length > 0) await take(page.votes);
      if (page.entries === 0 || page.cursor === undefined || query === `cursor=${encodeURIComponent(page.cursor)}`)
        return;
      query = `cursor=${encodeURIComponent(page.cursor)}`;
    }
  }

  /**
   * A member's running vote, asked while they wait (`/vote`): only if the shared limit has a request
   * free now, within `timeoutMs`; undefined when Top.gg has none running (404) or it has ended.
   * @example const vote = await api.voteOf(token, '284102390141648897', { timeoutMs: 1_000, now: Date.now() });
   */
  async voteOf(
    token: string,
    memberId: string,
    ask: { timeoutMs: number; now: number },
  ): Promise<TopggVote | undefined> {
    if (!isSnowflake(memberId)) return undefined;
    const path = `/v1/projects/@me/votes/${memberId}?source=discord`;
    const body = await this.#get(token, path, { timeoutMs: ask.timeoutMs, wait: false, notFound: true });
    const vote = body === undefined ? undefined : readVote({ ...(body as object), platform_id: memberId });
    return vote !== undefined && vote.until > ask.now ? vote : undefined;
  }

  /** The one request path: the shared limit, the token, the status read into a TopggFailure. */
  async #get(token: string, path: string, how: RequestHow): Promise<unknown> {
    const { signal } = how;
    if (how.wait === false) {
      if (!this.options.window.tryReserve()) throw new TopggApiError({ kind: 'transient', reason: 'no request free' });
    } else await this.options.window.take(this.options.sleep ?? ((ms) => delay(ms, undefined, { signal, ref: false })));
    signal?.throwIfAborted();
    let response: TextResponse;
    try {
      response = await requestText(`${this.options.baseUrl.replace(/\/+$/, '')}${path}`, {
        method: 'GET',
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        timeoutMs: how.timeoutMs ?? this.options.timeoutMs ?? 10_000,
        maxBytes: MAX_BYTES,
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      // The error's own words: never the request, which holds the token.
      throw new TopggApiError({ kind: 'transient', reason: (error as Error).name || 'network error' });
    }
    const { status } = response;
    if (status === 404 && how.notFound === true) return undefined;
    if (status === 429) throw new TopggApiError({ kind: 'limited', retryAfterMs: retryAfterMs(response) });
    if (status === 408 || status >= 500) throw new TopggApiError({ kind: 'transient', reason: `HTTP ${status}` });
    if (status >= 400 || status < 200) throw new TopggApiError({ kind: 'refused', status });
    try {
      return JSON.parse(response.text) as unknown;
    } catch {
      throw new TopggApiError({ kind: 'transient', reason: 'an answer that is not JSON' });
    }
  }
}

/** How one request is made: a read waits for the limit's next slot, a member's question does not. */
interface RequestHow {
  signal?: AbortSignal | undefined;
  timeoutMs?: number;
  /** false: only if a request is free now. */
  wait?: boolean;
  /** 404 is an answer (no vote), not a refusal. */
  notFound?: boolean;
}

/** Seconds from the `retry-after` header or body field; the documented hour when neither says. */
function retryAfterMs(response: TextResponse): number {
  const header = response.headers['retry-after'];
  let seconds = Number(Array.isArray(header) ? header[0] : header);
  if (!Number.isFinite(seconds) || seconds <= 0)
    try {
      seconds = Number((JSON.parse(response.text) as Record<string, unknown>)['retry-after']);
    } catch {
      seconds = Number.NaN;
    }
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : BLOCK_MS;
}

/** A page: its votes (an entry not of the documented shape is left out), how many entries it had, and the cursor. */
export function readPage(body: unknown): { votes: TopggVote[]; entries: number; cursor: string | undefined } {
  const page = body as { cursor?: unknown; data?: unknown } | null;
  if (typeof page !== 'object' || page === null || !Array.isArray(page.data))
    throw new TopggApiError({ kind: 'transient', reason: 'an answer without a data list' });
  const votes = page.data.flatMap((entry: unknown) => {
    const vote = readVote(entry);
    return vote ? [vote] : [];
  });
  const cursor = typeof page.cursor === 'string' && page.cursor !== '' ? page.cursor : undefined;
  return { votes, entries: page.data.length, cursor };
}

function readVote(entry: unknown): TopggVote | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { platform_id: memberId, weight, created_at: created, expires_at: expires } = entry as Record<string, unknown>;
  const at = typeof created === 'string' ? Date.parse(created) : Number.NaN;
  const until = typeof expires === 'string' ? Date.parse(expires) : Number.NaN;
  if (!isSnowflake(memberId) || !Number.isFinite(at) || !Number.isFinite(until)) return undefined;
  if (typeof weight !== 'number' || !Number.isInteger(weight)) return undefined;
  return { memberId, at, until, ...clampWeight(weight, TOPGG_WEIGHTS) };
}
