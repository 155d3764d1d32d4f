import { monthOf, monthRange } from '../leaderboard/month.js';
import type { LedgerVote, RunningListVote, Store } from '../store/index.js';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from './openapi.js';

/** What the answers read of one server's store. */
export type ApiLedger = Pick<Store, 'runningVotesOf' | 'memberTotals' | 'ledgerPage' | 'streakOf'>;

/** A request the API cannot read: answered 400 with this message. */
export class BadRequest extends Error {}

const iso = (at: number) => new Date(at).toISOString();

/** `GET …/members/{member}/vote`: the member's running vote on each list, and their counts by the one rule. */
export async function memberVoteAnswer(ledger: ApiLedger, userId: string, now: number, graceMs: number) {
  const { from: monthStart } = monthRange(monthOf(new Date(now)));
  const [running, totals, streak] = await Promise.all([
    ledger.runningVotesOf(userId, now),
    ledger.memberTotals(userId, monthStart, now),
    ledger.streakOf(userId, now, graceMs),
  ]);
  return {
    voting: running.length > 0,
    lists: running.map(listVote),
    month: totals.month,
    all_time: totals.allTime,
    streak,
  };
}

const listVote = (vote: RunningListVote) => ({
  site: vote.site,
  voted_at: iso(vote.votedAt),
  expires_at: iso(vote.endsAt),
  weight: vote.weight,
});

/** `GET …/votes?since=&cursor=&limit=`: a page of the ledger, in the order it took the votes. */
export async function votesPageAnswer(ledger: ApiLedger, query: URLSearchParams) {
  const { since, after, limit } = readPageQuery(query);
  const votes = await ledger.ledgerPage(since, after, limit);
  const last = votes.at(-1)?.id ?? (after > 0 ? after : undefined);
  return { data: votes.map(ledgerVote), cursor: last === undefined ? null : cursorOf(last) };
}

const ledgerVote = (vote: LedgerVote) => ({
  member_id: vote.userId,
  site: vote.site,
  weight: vote.weight,
  voted_at: iso(vote.votedAt),
  expires_at: iso(vote.endsAt),
});

/** An ISO 8601 time with a date and, if any, a time of day: what `since` takes. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;
const CURSOR = /^c([1-9][0-9]{0,15})$/;

function readPageQuery(query: URLSearchParams): { since: number; after: number; limit: number } {
  const known = new Set(['since', 'cursor', 'limit']);
  const unknown = [...query.keys()].find((key) => !known.has(key));
  if (unknown !== undefined) throw new BadRequest(`unknown query parameter ${unknown}: use since, cursor and limit`);
  const sinceText = query.get('since');
  const since = sinceText === null ? 0 : ISO_TIME.test(sinceText) ? Date.parse(sinceText) : Number.NaN;
  if (Number.isNaN(since)) throw new BadRequest('since must be an ISO 8601 time, e.g. 2026-11-01T00:00:00Z');
  const limitText = query.get('limit');
  const limit = limitText === null ? PAGE_LIMIT_DEFAULT : /^\d{1,3}$/.test(limitText) ? Number(limitText) : 0;
  if (limit < 1 || limit > PAGE_LIMIT_MAX)
    throw new BadRequest(`limit must be a whole number from 1 to ${PAGE_LIMIT_MAX}`);
  const cursorText = query.get('cursor');
  const after = cursorText === null ? 0 : readCursor(cursorText);
  return { since, after, limit };
}

/** A cursor is opaque to callers: a position in the ledger, base64url so no one builds one by hand. */
function cursorOf(id: number): string {
  return Buffer.from(`c${id}`, 'utf8').toString('base64url');
}

function readCursor(text: string): number {
  const match = CURSOR.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (!match) throw new BadRequest('cursor must be one a page of this API gave');
  return Number(match[1]);
}
