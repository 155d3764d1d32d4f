import { afterAll, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { request } from 'node:http';
import { bundledSeed } from '../../src/sandbox/seed.js';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { CRITIC, NOBODY, VOTER } from '../../tools/seed.js';
import { holdClock } from '../support/held-clock.js';
import { pollUntil } from '../support/poll-until.js';

const HOUR = 3_600_000;
const SNOWFLAKE = /^\d{17,20}$/;

let sandbox: Sandbox;
let auth: Record<string, string>;

function call(path: string, init: RequestInit = {}, headers: Record<string, string> = auth) {
  return fetch(`${sandbox.baseUrl}${path}`, { ...init, headers: { ...headers, ...init.headers } });
}

function postReply(reviewId: string, body: unknown, headers = auth) {
  return call(
    `/reviews/${encodeURIComponent(reviewId)}`,
    { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) },
    { ...headers, 'Content-Type': 'application/json' },
  );
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

beforeAll(async () => {
  sandbox = await startSandbox();
  auth = { 'Service-Api-Key': sandbox.apiKey, 'Service-App-Id': sandbox.appId };
});

afterAll(() => sandbox.close());

beforeEach(() => sandbox.reset());

describe('the bundled seed', () => {
  it('holds the documented fixtures', () => {
    const voters = bundledSeed.votes.map((vote) => vote.userId);
    const byAuthor = new Map(bundledSeed.reviews.map((review) => [review.authorId, review]));
    expect(voters).toContain(VOTER);
    expect(byAuthor.get(VOTER)).toMatchObject({ id: 'rev_7Hq2LmX9', rating: 5 });
    expect(voters).not.toContain(NOBODY);
    expect(byAuthor.has(NOBODY)).toBe(false);
    expect(byAuthor.get(CRITIC)).toMatchObject({ id: 'rev_Kd81PzQ4', rating: 2 });
    expect(byAuthor.get(CRITIC)?.content).toEqual(expect.stringContaining('**bold**'));
    expect(byAuthor.get(CRITIC)?.content).toEqual(expect.stringContaining('@everyone'));
  });

  it('respects the spec limits and keeps total >= monthly >= active votes', () => {
    for (const review of bundledSeed.reviews) {
      expect(review.rating).toBeGreaterThanOrEqual(1);
      expect(review.rating).toBeLessThanOrEqual(5);
      expect(review.content.length).toBeLessThanOrEqual(200);
      expect(review.authorId).toMatch(SNOWFLAKE);
    }
    expect(bundledSeed.totalVotes).toBeGreaterThanOrEqual(bundledSeed.monthlyVotes);
    expect(bundledSeed.monthlyVotes).toBeGreaterThanOrEqual(bundledSeed.votes.length);
  });
});

describe('GET /votes/{user_id}', () => {
  it('answers a voter with voted true and the milliseconds left, rebased to now', async () => {
    const response = await call(`/votes/${VOTER}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { voted: boolean; remaining: number };
    expect(body.voted).toBe(true);
    expect(body.remaining).toBeGreaterThan(9.9 * HOUR);
    expect(body.remaining).toBeLessThanOrEqual(10.1 * HOUR);
  });

  it('answers a member without a vote with voted false and remaining null', async () => {
    const response = await call(`/votes/${NOBODY}`);
    expect(await response.json()).toEqual({ voted: false, remaining: null });
  });

  it('no longer counts a vote once it has expired', async () => {
    // The sandbox reads Date.now: held, and moved past the vote's end.
    const clock = holdClock(['Date']);
    try {
      sandbox.setVote(NOBODY, 20);
      expect(await (await call(`/votes/${NOBODY}`)).json()).toEqual({ voted: true, remaining: 20 });
      clock.advance(20);
      expect(await (await call(`/votes/${NOBODY}`)).json()).toEqual({ voted: false, remaining: null });
    } finally {
      clock.release();
    }
  });

  it('decodes a URL-encoded user id', async () => {
    const encoded = [...VOTER].map((digit) => `%3${digit}`).join('');
    const body = (await (await call(`/votes/${encoded}`)).json()) as { voted: boolean };
    expect(body.voted).toBe(true);
  });
});

describe('GET /votes', () => {
  it('lists the active votes with totals, remaining in ms and the discord flag', async () => {
    const response = await call('/votes');
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      totalVotes: number;
      monthlyVotes: number;
      votes: Array<{ userId: string; remaining: number; discord: boolean }>;
    };
    expect(body.totalVotes).toBe(bundledSeed.totalVotes);
    expect(body.monthlyVotes).toBe(bundledSeed.monthlyVotes);
    expect(body.votes).toHaveLength(bundledSeed.votes.length);
    for (const vote of body.votes) {
      expect(Object.keys(vote).sort()).toEqual(['discord', 'remaining', 'userId']);
      expect(vote.userId).toMatch(SNOWFLAKE);
      expect(Number.isInteger(vote.remaining)).toBe(true);
      expect(vote.remaining).toBeGreaterThan(0);
      expect(vote.remaining).toBeLessThanOrEqual(12 * HOUR);
      expect(typeof vote.discord).toBe('boolean');
    }
  });

  it('counts a new vote in the totals and lists it; setVote(null) removes it', async () => {
    sandbox.setVote(NOBODY, 5 * 60_000);
    type List = { totalVotes: number; votes: Array<{ userId: string }> };
    const after = (await (await call('/votes')).json()) as List;
    expect(after.totalVotes).toBe(bundledSeed.totalVotes + 1);
    expect(after.votes.map((vote) => vote.userId)).toContain(NOBODY);

    sandbox.setVote(NOBODY, null);
    const removed = (await (await call('/votes')).json()) as List;
    expect(removed.votes.map((vote) => vote.userId)).not.toContain(NOBODY);
  });
});

describe('GET /reviews/{user_id}', () => {
  it('returns the review in the wire shape', async () => {
    const response = await call(`/reviews/${VOTER}`);
    expect(response.status).toBe(200);
    const review = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(review).sort()).toEqual(
      ['authorId', 'content', 'created_at', 'id', 'likes', 'rating', 'replies'].sort(),
    );
    expect(review).toMatchObject({ id: 'rev_7Hq2LmX9', rating: 5, authorId: VOTER });
    expect(review.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(Date.parse(review.created_at as string)).toBeLessThan(Date.now());
  });

  it('serves markdown and @everyone in content untouched', async () => {
    const review = (await (await call(`/reviews/${CRITIC}`)).json()) as { id: string; content: string };
    expect(review.id).toBe('rev_Kd81PzQ4');
    expect(review.content).toContain('**bold**');
    expect(review.content).toContain('@everyone');
  });

  it('answers 404 with an error body for a member without a review', async () => {
    const response = await call(`/reviews/${NOBODY}`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'Not Found' });
  });

  it('serves a review set by a test and forgets a deleted one', async () => {
    sandbox.setReview({
      id: 'rev_test0001',
      rating: 3,
      content: 'fine',
      likes: 0,
      replies: 0,
      created_at: '2025-01-01T00:00:00.000Z',
      authorId: NOBODY,
    });
    const served = (await (await call(`/reviews/${NOBODY}`)).json()) as { id: string };
    expect(served.id).toBe('rev_test0001');
    sandbox.deleteReview(NOBODY);
    expect((await call(`/reviews/${NOBODY}`)).status).toBe(404);
    expect(sandbox.getReviewById('rev_test0001')).toBeUndefined();
  });
});

describe('POST /reviews/{review_id}', () => {
  it('creates a reply: 201 with a snowflake id, stored and counted on the review', async () => {
    const repliesBefore = sandbox.getReviewById('rev_7Hq2LmX9')?.replies ?? NaN;
    const response = await postReply('rev_7Hq2LmX9', { content: 'Thank you!', pinned: true });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    expect(id).toMatch(SNOWFLAKE);
    expect(sandbox.repliesTo('rev_7Hq2LmX9')).toEqual([{ id, content: 'Thank you!', pinned: true }]);
    expect(sandbox.getReviewById('rev_7Hq2LmX9')?.replies).toBe(repliesBefore + 1);
    const served = (await (await call(`/reviews/${VOTER}`)).json()) as { replies: number };
    expect(served.replies).toBe(repliesBefore + 1);
  });

  it('gives each reply its own id, oldest first', async () => {
    const post = async (content: string) =>
      (await (await postReply('rev_7Hq2LmX9', { content, pinned: false })).json()) as { id: string };
    const first = await post('one');
    const second = await post('two');
    expect(first.id).not.toBe(second.id);
    expect(sandbox.repliesTo('rev_7Hq2LmX9').map((reply) => reply.id)).toEqual([first.id, second.id]);
  });

  it('answers Unknown Review for a review that does not exist', async () => {
    const response = await postReply('rev_missing1', { content: 'hello', pinned: false });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'Unknown Review' });
  });

  it.each([
    ['is not JSON', '{"content": "hi"'],
    ['has no content', { pinned: false }],
    ['has blank content', { content: '   ', pinned: false }],
    ['has content that is not a string', { content: 42, pinned: false }],
    ['has pinned that is not a boolean', { content: 'hi', pinned: 'yes' }],
  ])('refuses a body that %s with 400 and an error, posting nothing', async (_case, body) => {
    const response = await postReply('rev_7Hq2LmX9', body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: expect.any(String) });
    expect(sandbox.repliesTo('rev_7Hq2LmX9')).toEqual([]);
  });
});

describe('authentication', () => {
  type Send = (headers: Record<string, string>) => Promise<Response>;
  const routes: Array<[string, Send]> = [
    ['GET /votes/{id}', (headers) => call(`/votes/${VOTER}`, {}, headers)],
    ['GET /votes', (headers) => call('/votes', {}, headers)],
    ['GET /reviews/{id}', (headers) => call(`/reviews/${VOTER}`, {}, headers)],
    ['POST /reviews/{id}', (headers) => postReply('rev_7Hq2LmX9', { content: 'x', pinned: false }, headers)],
  ];

  it.each(routes)('refuses %s with a wrong API key, with the exact 401 body', async (_name, send) => {
    const response = await send({ ...auth, 'Service-Api-Key': 'wrong' });
    expect(response.status).toBe(401);
    expect(await response.text()).toBe('{"status":401,"error":"Unauthorised"}');
  });

  it.each(routes)('refuses %s without the app id, with the exact 401 body', async (_name, send) => {
    const { 'Service-App-Id': _dropped, ...withoutAppId } = auth;
    const response = await send(withoutAppId);
    expect(response.status).toBe(401);
    expect(await response.text()).toBe('{"status":401,"error":"Unauthorised"}');
  });

  it('posts nothing when the credentials are refused', async () => {
    await postReply('rev_7Hq2LmX9', { content: 'x', pinned: false }, {});
    expect(sandbox.repliesTo('rev_7Hq2LmX9')).toEqual([]);
  });

  it('accepts the header names in any letter case', async () => {
    // node:http sends names as given; fetch would lower-case them on the wire.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const headers = { 'SERVICE-API-KEY': sandbox.apiKey, 'service-APP-id': sandbox.appId };
      request(`${sandbox.baseUrl}/votes/${VOTER}`, { headers }, (response) => {
        response.resume();
        resolve(response.statusCode);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(200);
  });

  it('uses the configured header prefix instead of Service', async () => {
    const guilds = await startSandbox({ headerPrefix: 'Guilds', apiKey: 'k', appId: 'a' });
    try {
      const asGuilds = { 'Guilds-Api-Key': 'k', 'Guilds-App-Id': 'a' };
      const asService = { 'Service-Api-Key': 'k', 'Service-App-Id': 'a' };
      const withGuilds = await fetch(`${guilds.baseUrl}/votes`, { headers: asGuilds });
      const withService = await fetch(`${guilds.baseUrl}/votes`, { headers: asService });
      expect([withGuilds.status, withService.status]).toEqual([200, 401]);
    } finally {
      await guilds.close();
    }
  });
});

describe("several servers' credentials", () => {
  it('accepts each pair it was given, records which one a request used, and refuses pairs mixed across servers', async () => {
    const many = await startSandbox({
      apiKey: 'key-a',
      appId: 'app-a',
      moreCredentials: [{ apiKey: 'key-b', appId: 'app-b' }],
    });
    try {
      const get = (apiKey: string, appId: string) =>
        fetch(`${many.baseUrl}/votes`, { headers: { 'Service-Api-Key': apiKey, 'Service-App-Id': appId } }).then(
          (r) => r.status,
        );
      const statuses = [await get('key-a', 'app-a'), await get('key-b', 'app-b'), await get('key-a', 'app-b')];
      expect(statuses).toEqual([200, 200, 401]);
      expect(many.requests.map((r) => r.appId)).toEqual(['app-a', 'app-b', undefined]);
    } finally {
      await many.close();
    }
  });
});

describe('unknown paths', () => {
  it('answers 404 with a JSON error body', async () => {
    const response = await call('/guilds/123');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: expect.any(String) });
  });
});

describe('fault injection', () => {
  it('delays by latencyMs, then answers normally', async () => {
    sandbox.setFault('getVote', { latencyMs: 150 });
    const { result, ms } = await timed(() => call(`/votes/${VOTER}`));
    expect(ms).toBeGreaterThanOrEqual(140);
    expect(result.status).toBe(200);
  });

  it('forces a status with its Retry-After header and a JSON body fitting the status', async () => {
    sandbox.setFault('listVotes', { status: 503, retryAfter: '2' });
    const response = await call('/votes');
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(await response.json()).toEqual({ error: 'Service Unavailable' });
  });

  it('forces a status even when the credentials are wrong, because the service itself is down', async () => {
    sandbox.setFault('getVote', { status: 500 });
    const response = await call(`/votes/${VOTER}`, {}, {});
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'Internal Server Error' });
  });

  it('sends a raw body with a forced status', async () => {
    sandbox.setFault('getReview', { status: 502, body: '<html>Bad Gateway</html>' });
    const response = await call(`/reviews/${VOTER}`);
    expect(response.status).toBe(502);
    expect(await response.text()).toBe('<html>Bad Gateway</html>');
  });

  it('resets the connection without an answer, so fetch rejects', async () => {
    sandbox.setFault('postReply', { reset: true });
    await expect(postReply('rev_7Hq2LmX9', { content: 'x', pinned: false })).rejects.toThrow();
    expect(sandbox.repliesTo('rev_7Hq2LmX9')).toEqual([]);
  });

  it('answers 200 with a body that is not valid JSON', async () => {
    sandbox.setFault('getVote', { malformed: true });
    const response = await call(`/votes/${VOTER}`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  });

  it('trickles the normal body one byte at a time', async () => {
    const normal = await (await call(`/votes/${NOBODY}`)).text();
    sandbox.setFault('getVote', { trickleMs: 10 });
    const { result, ms } = await timed(async () => (await call(`/votes/${NOBODY}`)).text());
    expect(result).toBe(normal);
    expect(ms).toBeGreaterThanOrEqual(normal.length * 10 * 0.8);
  });

  it('fails only the next `times` requests, then clears itself', async () => {
    sandbox.setFault('getVote', { status: 503, times: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await call(`/votes/${VOTER}`)).status);
    expect(statuses).toEqual([503, 503, 200]);
  });

  it('applies a fault to its own route only', async () => {
    sandbox.setFault('listVotes', { status: 503 });
    expect((await call(`/votes/${VOTER}`)).status).toBe(200);
  });

  it('applies a "*" fault to every route, a route fault winning over it', async () => {
    sandbox.setFault('*', { status: 500 });
    sandbox.setFault('getReview', { status: 429, retryAfter: '1' });
    expect((await call('/votes')).status).toBe(500);
    expect((await call(`/reviews/${VOTER}`)).status).toBe(429);
  });

  it('stops faulting after clearFaults()', async () => {
    sandbox.setFault('*', { reset: true });
    sandbox.clearFaults();
    expect((await call('/votes')).status).toBe(200);
  });
});

describe('request log', () => {
  it('records every request with its route, faulted and refused ones included', async () => {
    sandbox.setFault('postReply', { reset: true });
    await call(`/votes/${VOTER}`);
    await call('/votes', {}, {});
    await postReply('rev_7Hq2LmX9', { content: 'logged', pinned: false }).catch(() => undefined);
    await call('/nowhere');

    const routes = sandbox.requests.map((request) => request.route);
    expect(routes).toEqual(['getVote', 'listVotes', 'postReply', 'unknown']);
    expect(sandbox.requests[2]).toMatchObject({ method: 'POST', path: '/v1/reviews/rev_7Hq2LmX9' });
    expect(JSON.parse(sandbox.requests[2]?.body ?? '')).toEqual({ content: 'logged', pinned: false });
    expect(sandbox.requests[0]?.headers['service-api-key']).toBe(sandbox.apiKey);
    expect(sandbox.requestCount()).toBe(4);
    expect(sandbox.requestCount('postReply')).toBe(1);
    expect(sandbox.requestCount('getReview')).toBe(0);
  });

  it('records a request before answering it', async () => {
    // The latency runs on jest's clock: the answer cannot come before the test moves it.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'performance'] });
    try {
      sandbox.setFault('getVote', { latencyMs: 300 });
      let answered = false;
      const pending = call(`/votes/${VOTER}`).then((response) => ((answered = true), response));
      await pollUntil(() => sandbox.requestCount('getVote') === 1, 'the request recorded');
      expect(answered).toBe(false);
      await jest.advanceTimersByTimeAsync(300);
      expect((await pending).status).toBe(200);
    } finally {
      jest.useRealTimers();
    }
  });

  it('keeps at most maxLog requests, yet counts them all', async () => {
    const small = await startSandbox({ maxLog: 3 });
    try {
      const headers = { 'Service-Api-Key': small.apiKey, 'Service-App-Id': small.appId };
      for (let i = 0; i < 10; i += 1) await fetch(`${small.baseUrl}/votes/${i}`, { headers });
      const paths = small.requests.map((request) => request.path);
      expect(paths).toEqual(['/v1/votes/7', '/v1/votes/8', '/v1/votes/9']);
      expect(small.requestCount('getVote')).toBe(10);
    } finally {
      await small.close();
    }
  });

  it('answers 500 concurrent requests and counts each one', async () => {
    const responses = await Promise.all(Array.from({ length: 500 }, () => call('/votes')));
    expect(responses.every((response) => response.status === 200)).toBe(true);
    await Promise.all(responses.map((response) => response.arrayBuffer()));
    expect(sandbox.requestCount('listVotes')).toBe(500);
  });
});

describe('reset()', () => {
  it('restores the seed data and clears faults and the log', async () => {
    const seededReplies = sandbox.getReviewById('rev_7Hq2LmX9')?.replies;
    await postReply('rev_7Hq2LmX9', { content: 'gone after reset', pinned: false });
    sandbox.setVote(VOTER, null);
    sandbox.deleteReview(CRITIC);
    sandbox.setFault('*', { status: 503 });

    sandbox.reset();

    expect(sandbox.requestCount()).toBe(0);
    expect(sandbox.requests).toEqual([]);
    expect(sandbox.repliesTo('rev_7Hq2LmX9')).toEqual([]);
    expect(sandbox.getReviewById('rev_7Hq2LmX9')?.replies).toBe(seededReplies);
    expect(sandbox.getReviewById('rev_Kd81PzQ4')).toBeDefined();
    expect(((await (await call(`/votes/${VOTER}`)).json()) as { voted: boolean }).voted).toBe(true);
  });
});

describe('close()', () => {
  it('resolves promptly while a keep-alive connection is idle', async () => {
    const other = await startSandbox();
    await (await fetch(`${other.baseUrl}/votes`)).text();
    const { ms } = await timed(() => other.close());
    // Waiting on the idle connection would take its 5 s keep-alive.
    expect(ms).toBeLessThan(3_000);
  });
});
