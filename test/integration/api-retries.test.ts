import { describe, expect, it } from '@jest/globals';
import { ReplyOutcomeUnknownError, ServiceUnavailableError } from '../../src/api/index.js';
import { parseRetryAfter } from '../../src/api/retry-after.js';
import type { AttemptInfo, ServiceClient, ServiceClientOptions } from '../../src/api/index.js';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { useSandbox } from '../support/sandbox-per-file.js';
import { pollUntil } from '../support/poll-until.js';
import { failure, fastClient } from '../support/service.js';
import { closedPort } from '../../tools/closed-port.js';
import { CRITIC_REVIEW, VOTER } from '../../tools/seed.js';

const REPLY = { content: 'Thanks for the feedback', pinned: false };

let sandbox: Sandbox;

const clientFor = (baseUrl: string, overrides: Partial<ServiceClientOptions> = {}): ServiceClient =>
  fastClient({ baseUrl, apiKey: sandbox.apiKey, appId: sandbox.appId }, { retries: 3, ...overrides });

const gapsBetween = (requests: readonly { at: number }[]) =>
  requests.slice(1).map((request, index) => request.at - (requests[index]?.at ?? 0));

useSandbox((started) => (sandbox = started));

describe('GET retries', () => {
  it('retries a 503 twice and then returns the vote, after 3 requests', async () => {
    sandbox.setFault('getVote', { status: 503, times: 2 });
    const vote = await clientFor(sandbox.baseUrl).getVote(VOTER);
    expect(vote.voted).toBe(true);
    expect(sandbox.requestCount('getVote')).toBe(3);
  });

  it.each([[408], [429], [500], [502], [503], [504]])('retries a GET answered %i', async (status) => {
    sandbox.setFault('getReview', { status, times: 1 });
    const review = await clientFor(sandbox.baseUrl).getReview(VOTER);
    expect(review?.id).toBe('rev_7Hq2LmX9');
    expect(sandbox.requestCount('getReview')).toBe(2);
  });

  it('retries a connection reset on a GET', async () => {
    sandbox.setFault('listVotes', { reset: true, times: 1 });
    const list = await clientFor(sandbox.baseUrl).listVotes();
    expect(list.votes.length).toBeGreaterThan(0);
    expect(sandbox.requestCount('listVotes')).toBe(2);
  });

  it('retries a GET whose attempt timed out', async () => {
    sandbox.setFault('getVote', { latencyMs: 500, times: 1 });
    const vote = await clientFor(sandbox.baseUrl, { attemptTimeoutMs: 150 }).getVote(VOTER);
    expect(vote.voted).toBe(true);
    expect(sandbox.requestCount('getVote')).toBe(2);
  });

  it('backs off between retries, by at least the minimum delay', async () => {
    sandbox.setFault('getVote', { status: 500, times: 2 });
    await clientFor(sandbox.baseUrl, { minRetryDelayMs: 100, maxRetryDelayMs: 1000 }).getVote(VOTER);
    const gaps = gapsBetween(sandbox.requests);
    expect(gaps).toHaveLength(2);
    // Jitter multiplies the exponential delay (100, then 200 ms) by a factor in [1, 2).
    expect(gaps[0]).toBeGreaterThanOrEqual(95);
    expect(gaps[1]).toBeGreaterThanOrEqual(195);
  });

  it('gives up with retries_exhausted and the last status after retries + 1 requests', async () => {
    sandbox.setFault('getVote', { status: 500 });
    const error = await failure(clientFor(sandbox.baseUrl, { retries: 2 }).getVote(VOTER));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).reason).toBe('retries_exhausted');
    expect((error as ServiceUnavailableError).status).toBe(500);
    expect(sandbox.requestCount('getVote')).toBe(3);
  });

  it('retries a GET to a closed port and then fails as unavailable', async () => {
    const attempts: AttemptInfo[] = [];
    const client = clientFor(`http://127.0.0.1:${await closedPort()}/v1`, {
      retries: 2,
      onAttempt: (info) => attempts.push(info),
    });
    const error = await failure(client.getVote(VOTER));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).reason).toBe('retries_exhausted');
    expect(attempts.map((info) => info.error)).toEqual(['ECONNREFUSED', 'ECONNREFUSED', 'ECONNREFUSED']);
  });
});

describe('Retry-After', () => {
  it('waits at least Retry-After: 1 before the next try after a 429', async () => {
    sandbox.setFault('getVote', { status: 429, retryAfter: '1', times: 1 });
    const vote = await clientFor(sandbox.baseUrl, { totalBudgetMs: 3000 }).getVote(VOTER);
    expect(vote.voted).toBe(true);
    expect(sandbox.requestCount('getVote')).toBe(2);
    expect(gapsBetween(sandbox.requests)[0]).toBeGreaterThanOrEqual(1000);
  });

  it('fails at once, after 1 request, when a 429 Retry-After reaches past the budget', async () => {
    sandbox.setFault('getVote', { status: 429, retryAfter: '30' });
    const started = performance.now();
    const error = await failure(clientFor(sandbox.baseUrl, { totalBudgetMs: 10_000 }).getVote(VOTER));
    // Waiting would take the whole 10 s budget; the bound leaves a loaded machine room below it.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).status).toBe(429);
    expect((error as Error).message).toMatch(/asked to wait 30000 ms/);
    expect(sandbox.requestCount('getVote')).toBe(1);
  });

  it('honours Retry-After on a 503 as well, as an HTTP-date', async () => {
    sandbox.setFault('getVote', { status: 503, retryAfter: new Date(Date.now() + 60_000).toUTCString() });
    const started = performance.now();
    const error = await failure(clientFor(sandbox.baseUrl).getVote(VOTER));
    // Waiting would take the 10 s budget.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect((error as ServiceUnavailableError).status).toBe(503);
    expect(sandbox.requestCount('getVote')).toBe(1);
  });

  it('the call budget bounds the Retry-After check: budgetMs smaller than the wait fails at once', async () => {
    sandbox.setFault('getVote', { status: 429, retryAfter: '1' });
    const error = await failure(clientFor(sandbox.baseUrl, { totalBudgetMs: 5000 }).getVote(VOTER, { budgetMs: 500 }));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(sandbox.requestCount('getVote')).toBe(1);
  });

  it('parses delta-seconds and HTTP-dates, and ignores what it cannot read', () => {
    const now = Date.parse('2025-11-20T18:00:00Z');
    expect(parseRetryAfter('1', now)).toBe(1000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 20 Nov 2025 18:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Thu, 20 Nov 2025 17:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('-1', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('timeouts and budgets', () => {
  it('times out a body that trickles slower than the attempt timeout', async () => {
    sandbox.setFault('getVote', { trickleMs: 50 });
    const attempts: AttemptInfo[] = [];
    const started = performance.now();
    const error = await failure(
      clientFor(sandbox.baseUrl, {
        attemptTimeoutMs: 150,
        retries: 0,
        onAttempt: (info) => attempts.push(info),
      }).getVote(VOTER),
    );
    // The body would take seconds at 50 ms a chunk; the bound leaves a loaded machine room.
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).reason).toBe('timeout');
    // The headers came in time (status 200); the body did not.
    expect(attempts).toEqual([expect.objectContaining({ status: 200, error: 'timeout' })]);
    expect(sandbox.requestCount('getVote')).toBe(1);
  });

  it('retries after a trickling body and returns the vote on the next try', async () => {
    sandbox.setFault('getVote', { trickleMs: 50, times: 1 });
    const vote = await clientFor(sandbox.baseUrl, { attemptTimeoutMs: 150 }).getVote(VOTER);
    expect(vote.voted).toBe(true);
    expect(sandbox.requestCount('getVote')).toBe(2);
  });

  it('stops retrying when the total budget is spent, with reason timeout', async () => {
    sandbox.setFault('getVote', { latencyMs: 400 });
    const started = performance.now();
    const error = await failure(
      clientFor(sandbox.baseUrl, { attemptTimeoutMs: 300, totalBudgetMs: 500, retries: 10 }).getVote(VOTER),
    );
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(480);
    // Ten retries unbounded by the budget would take over 3 s.
    expect(elapsed).toBeLessThan(2_000);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).reason).toBe('timeout');
    expect(sandbox.requestCount('getVote')).toBe(2);
  });

  it('ends a call at its own budgetMs when that is shorter than the client budget', async () => {
    sandbox.setFault('getVote', { latencyMs: 2_500 });
    const started = performance.now();
    const error = await failure(
      clientFor(sandbox.baseUrl, { attemptTimeoutMs: 3_000 }).getVote(VOTER, { budgetMs: 100 }),
    );
    // The answer would take 2.5 s.
    expect(performance.now() - started).toBeLessThan(1_800);
    expect((error as ServiceUnavailableError).reason).toBe('timeout');
  });

  it('ends a call when its signal aborts, with reason aborted', async () => {
    sandbox.setFault('getVote', { latencyMs: 1000 });
    const controller = new AbortController();
    // Aborted while the request is at the service, not before it left.
    void pollUntil(() => sandbox.requestCount('getVote') > 0, 'the request at the service').then(() =>
      controller.abort(),
    );
    // Not answered (1 s) nor timed out (5 s): only the abort ends it with this reason.
    const error = await failure(clientFor(sandbox.baseUrl).getVote(VOTER, { signal: controller.signal }));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).reason).toBe('aborted');
  });

  it('makes no request when the signal is already aborted', async () => {
    const error = await failure(clientFor(sandbox.baseUrl).getVote(VOTER, { signal: AbortSignal.abort() }));
    expect((error as ServiceUnavailableError).reason).toBe('aborted');
    expect(sandbox.requestCount()).toBe(0);
  });
});

describe('POST is not idempotent', () => {
  it.each([[500], [502], [503], [504]])(
    'reports an unknown outcome after 1 request when the POST is answered %i',
    async (status) => {
      sandbox.setFault('postReply', { status });
      const error = await failure(clientFor(sandbox.baseUrl).replyToReview(CRITIC_REVIEW, REPLY));
      expect(error).toBeInstanceOf(ReplyOutcomeUnknownError);
      expect((error as ReplyOutcomeUnknownError).status).toBe(status);
      expect((error as ReplyOutcomeUnknownError).reviewId).toBe(CRITIC_REVIEW);
      expect(sandbox.requestCount('postReply')).toBe(1);
    },
  );

  it('reports an unknown outcome for an Internal Server Error body whatever its status', async () => {
    sandbox.setFault('postReply', { status: 400, body: '{"error":"Internal Server Error"}' });
    expect(await failure(clientFor(sandbox.baseUrl).replyToReview(CRITIC_REVIEW, REPLY))).toBeInstanceOf(
      ReplyOutcomeUnknownError,
    );
    expect(sandbox.requestCount('postReply')).toBe(1);
  });

  it('reports an unknown outcome after 1 request when the POST times out, and the reply was in fact posted', async () => {
    sandbox.setFault('postReply', { latencyMs: 300, times: 1 });
    const error = await failure(
      clientFor(sandbox.baseUrl, { attemptTimeoutMs: 100 }).replyToReview(CRITIC_REVIEW, REPLY),
    );
    expect(error).toBeInstanceOf(ReplyOutcomeUnknownError);
    expect(sandbox.requestCount('postReply')).toBe(1);
    // This is why it is not sent again: the service went on and posted it.
    await pollUntil(() => sandbox.repliesTo(CRITIC_REVIEW).length > 0, 'the late reply posted');
    expect(sandbox.repliesTo(CRITIC_REVIEW)).toHaveLength(1);
    expect(sandbox.requestCount('postReply')).toBe(1);
  });

  it('reports an unknown outcome after 1 request when the connection is reset', async () => {
    sandbox.setFault('postReply', { reset: true });
    const error = await failure(clientFor(sandbox.baseUrl).replyToReview(CRITIC_REVIEW, REPLY));
    expect(error).toBeInstanceOf(ReplyOutcomeUnknownError);
    expect(sandbox.requestCount('postReply')).toBe(1);
  });

  it('reports an unknown outcome after 1 request when the answer arrives but its body trickles past the timeout', async () => {
    sandbox.setFault('postReply', { trickleMs: 100 });
    const error = await failure(
      clientFor(sandbox.baseUrl, { attemptTimeoutMs: 150 }).replyToReview(CRITIC_REVIEW, REPLY),
    );
    expect(error).toBeInstanceOf(ReplyOutcomeUnknownError);
    expect(sandbox.requestCount('postReply')).toBe(1);
  });

  it('reports an unknown outcome after 1 request when its caller cancels the POST in flight', async () => {
    sandbox.setFault('postReply', { latencyMs: 300, times: 1 });
    const error = await failure(
      clientFor(sandbox.baseUrl).replyToReview(CRITIC_REVIEW, REPLY, { signal: AbortSignal.timeout(50) }),
    );
    expect(error).toBeInstanceOf(ReplyOutcomeUnknownError);
    expect(sandbox.requestCount('postReply')).toBe(1);
    await pollUntil(() => sandbox.repliesTo(CRITIC_REVIEW).length > 0, 'the late reply posted');
    expect(sandbox.repliesTo(CRITIC_REVIEW)).toHaveLength(1);
    expect(sandbox.requestCount('postReply')).toBe(1);
  });

  it('retries a POST answered 429 and returns the reply, after 2 requests', async () => {
    sandbox.setFault('postReply', { status: 429, times: 1 });
    const reply = await clientFor(sandbox.baseUrl).replyToReview(CRITIC_REVIEW, REPLY);
    expect(sandbox.requestCount('postReply')).toBe(2);
    expect(sandbox.repliesTo(CRITIC_REVIEW).map((stored) => stored.id)).toEqual([reply.id]);
  });

  it('fails at once, after 1 request, when a POST 429 Retry-After reaches past the budget', async () => {
    sandbox.setFault('postReply', { status: 429, retryAfter: '30' });
    const error = await failure(clientFor(sandbox.baseUrl).replyToReview(CRITIC_REVIEW, REPLY));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(sandbox.requestCount('postReply')).toBe(1);
  });

  it('retries a POST to a closed port, then fails as unavailable', async () => {
    const attempts: AttemptInfo[] = [];
    const client = clientFor(`http://127.0.0.1:${await closedPort()}/v1`, {
      retries: 2,
      onAttempt: (info) => attempts.push(info),
    });
    const error = await failure(client.replyToReview(CRITIC_REVIEW, REPLY));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).reason).toBe('retries_exhausted');
    expect(attempts.map((info) => [info.method, info.error])).toEqual([
      ['POST', 'ECONNREFUSED'],
      ['POST', 'ECONNREFUSED'],
      ['POST', 'ECONNREFUSED'],
    ]);
  });

  it('posts exactly one reply when the first try was refused and the service then came up', async () => {
    const port = await closedPort();
    let service: Promise<Sandbox> | undefined;
    const client = clientFor(`http://127.0.0.1:${port}/v1`, {
      minRetryDelayMs: 150,
      maxRetryDelayMs: 400,
      // The service starts listening right after the first refusal, before the retry.
      onAttempt: (info) => {
        if (info.error === 'ECONNREFUSED')
          service ??= startSandbox({ port, apiKey: sandbox.apiKey, appId: sandbox.appId });
      },
    });
    try {
      const reply = await client.replyToReview(CRITIC_REVIEW, REPLY);
      const late = await service;
      expect(late?.requestCount('postReply')).toBe(1);
      expect(late?.repliesTo(CRITIC_REVIEW).map((stored) => stored.id)).toEqual([reply.id]);
    } finally {
      await (await service)?.close();
    }
  });
});

describe('attempt reports', () => {
  it('reports each HTTP attempt once, with route, method, number, duration and status', async () => {
    sandbox.setFault('getVote', { status: 503, times: 2 });
    const attempts: AttemptInfo[] = [];
    await clientFor(sandbox.baseUrl, { onAttempt: (info) => attempts.push(info) }).getVote(VOTER);
    expect(attempts).toEqual([
      { route: 'getVote', method: 'GET', attempt: 1, durationMs: expect.any(Number), status: 503 },
      { route: 'getVote', method: 'GET', attempt: 2, durationMs: expect.any(Number), status: 503 },
      { route: 'getVote', method: 'GET', attempt: 3, durationMs: expect.any(Number), status: 200 },
    ]);
    expect(attempts).toHaveLength(sandbox.requestCount());
  });

  it('keeps working when the observer throws', async () => {
    const client = clientFor(sandbox.baseUrl, {
      onAttempt: () => {
        throw new Error('metrics backend down');
      },
    });
    expect((await client.getVote(VOTER)).voted).toBe(true);
  });
});
