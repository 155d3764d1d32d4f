import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { RequestWindow } from '../../src/core/request-window.js';
import { readPage, TopggApi, TopggApiError, type TopggVote } from '../../src/lists/topgg-api.js';
import { startTopggStandIn, type TopggStandIn } from '../../tools/topgg-standin.js';

// Top.gg's vote list read against the stand-in on 127.0.0.1 (issue 51, item 3): every page by its
// cursor, each vote's times read from Top.gg's microsecond form, the token as a Bearer header, each
// failure as its kind, and the process's one limit keeping a burst of reads under Top.gg's 60 a minute.

const HOUR = 3_600_000;
const MINUTE = 60_000;
const clock = { now: Date.UTC(2026, 10, 15, 12) };
const member = (n: number) => `2841023901416${String(n).padStart(5, '0')}`;

let topgg: TopggStandIn;
beforeAll(async () => {
  topgg = await startTopggStandIn({ pageSize: 20, now: () => clock.now });
});
afterAll(async () => {
  await topgg?.close();
});

/** An API whose window's waits move the shared clock (as time would pass), never a real timer. */
const apiOn = (window = new RequestWindow(60, MINUTE, () => clock.now)) =>
  new TopggApi({
    baseUrl: topgg.url,
    window,
    sleep: async (ms) => void (clock.now += ms),
  });

async function readAll(api: TopggApi, token: string, since: number): Promise<TopggVote[][]> {
  const pages: TopggVote[][] = [];
  await api.votesSince(token, since, async (votes) => void pages.push(votes), clock.now);
  return pages;
}

describe("Top.gg's vote list", () => {
  beforeEach(() => {
    topgg.failWith(undefined);
  });

  it('reads every vote since a time, page by page to the empty page, oldest first', async () => {
    const start = clock.now - 6 * HOUR;
    topgg.vote(member(999), { at: start - HOUR });
    for (let n = 0; n < 50; n++) topgg.vote(member(n), { at: start + n * 1_000, weight: n === 7 ? 2 : 1 });
    const before = topgg.requests;
    const pages = await readAll(apiOn(), topgg.token, start);
    expect(pages.map((page) => page.length)).toEqual([20, 20, 10]);
    expect(topgg.requests - before).toBe(4);
    const votes = pages.flat();
    expect(votes.map((v) => v.memberId)).toEqual(Array.from({ length: 50 }, (_, n) => member(n)));
    expect(votes[3]).toEqual({ memberId: member(3), at: start + 3_000, until: start + 3_000 + 12 * HOUR, weight: 1 });
    expect(votes[7]!.weight).toBe(2);
  });

  it('sends the token as a Bearer header and reads a refusal as refused, not as a fault', async () => {
    const error = await readAll(apiOn(), 'not-the-project-token-0000', clock.now - HOUR).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TopggApiError);
    expect((error as TopggApiError).failure).toEqual({ kind: 'refused', status: 401 });
    expect((error as Error).message).not.toContain('not-the-project-token');
  });

  it('reads a 5xx as transient and a 429 as a block for as long as retry-after says', async () => {
    topgg.failWith(503);
    const outage = await readAll(apiOn(), topgg.token, clock.now - HOUR).catch((e: unknown) => e);
    expect((outage as TopggApiError).failure).toEqual({ kind: 'transient', reason: 'HTTP 503' });
    topgg.failWith(undefined);
    // A window wider than Top.gg's lets the stand-in see 61 in a minute: the hour's block.
    const careless = apiOn(new RequestWindow(1_000, MINUTE, () => clock.now));
    let failure: unknown;
    for (let n = 0; n < 70 && failure === undefined; n++)
      failure = await readAll(careless, topgg.token, clock.now - 1_000).then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((failure as TopggApiError).failure).toEqual({ kind: 'limited', retryAfterMs: HOUR });
    clock.now += 2 * HOUR;
  });

  it('keeps a burst of reads under 60 a minute through the shared window: no 429', async () => {
    const window = new RequestWindow(60, MINUTE, () => clock.now);
    const tooMany = topgg.tooMany;
    const before = topgg.requests;
    for (let n = 0; n < 100; n++) await readAll(apiOn(window), topgg.token, clock.now - 1_000);
    expect(topgg.requests - before).toBe(100);
    expect(topgg.tooMany).toBe(tooMany);
  });
});

describe("a member's running vote, asked while they wait", () => {
  it('answers the running vote by Discord id, none when it has ended or there is none (404)', async () => {
    const api = apiOn();
    const voter = member(500);
    expect(await api.voteOf(topgg.token, voter, { timeoutMs: 1_000, now: clock.now })).toBeUndefined();
    const vote = topgg.vote(voter, { at: clock.now - HOUR, weight: 2 });
    expect(await api.voteOf(topgg.token, voter, { timeoutMs: 1_000, now: clock.now })).toEqual({
      memberId: voter,
      at: vote.at,
      until: vote.until,
      weight: 2,
    });
    expect(await api.voteOf(topgg.token, voter, { timeoutMs: 1_000, now: vote.until })).toBeUndefined();
  });

  it('never waits for the shared limit: with no request free it asks nothing', async () => {
    const window = new RequestWindow(1, MINUTE, () => clock.now);
    const api = apiOn(window);
    const before = topgg.requests;
    await api.voteOf(topgg.token, member(501), { timeoutMs: 1_000, now: clock.now });
    const error = await api.voteOf(topgg.token, member(501), { timeoutMs: 1_000, now: clock.now }).catch((e) => e);
    expect((error as TopggApiError).failure).toEqual({ kind: 'transient', reason: 'no request free' });
    expect(topgg.requests - before).toBe(1);
  });
});

describe('a page of the vote list', () => {
  it('leaves out an entry not of the documented shape and keeps the rest', () => {
    const good = { platform_id: member(1), weight: 1, created_at: '2026-01-28T02:19:19.145733Z' };
    const page = readPage({
      cursor: 'c',
      data: [
        { ...good, expires_at: '2026-01-28T14:19:19.145733Z' },
        { ...good, platform_id: 'nobody', expires_at: '2026-01-28T14:19:19Z' },
        { ...good, expires_at: 'soon' },
        { ...good, weight: 9, expires_at: '2026-01-28T14:19:19Z' },
      ],
    });
    expect(page.entries).toBe(4);
    expect(page.cursor).toBe('c');
    expect(page.votes.map((v) => [v.at, v.weight, v.weightSent])).toEqual([
      [Date.parse('2026-01-28T02:19:19.145Z'), 1, undefined],
      [Date.parse('2026-01-28T02:19:19.145Z'), 2, 9],
    ]);
  });

  it('reads an answer without a data list as a fault to retry', () => {
    expect(() => readPage({ cursor: 'c' })).toThrow(TopggApiError);
  });
});
