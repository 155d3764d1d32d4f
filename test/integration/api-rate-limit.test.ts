import { afterEach, describe, expect, it } from '@jest/globals';
import { RateLimitedError, ServiceUnavailableError, type RateLimitEvent } from '../../src/api/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { useSandbox } from '../support/sandbox-per-file.js';
import { CRITIC_REVIEW, VOTER } from '../../tools/seed.js';
import { holdClock } from '../support/held-clock.js';
import { pollUntil } from '../support/poll-until.js';
import { failure, fastClient } from '../support/service.js';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started));
afterEach(() => sandbox.setRateLimit(null));

/** Distinct, valid member ids, so no two calls share a request. */
const memberId = (i: number) => String(300000000000000000n + BigInt(i));

describe('the sandbox rate-limit mode', () => {
  it('sends the limit headers on every answer, answers 429 with Retry-After when closed, and counts the violation', async () => {
    sandbox.setRateLimit({ limit: 2, windowMs: 10_000 });
    const url = `${sandbox.baseUrl}/votes/${VOTER}`;
    const headers = { 'Service-Api-Key': sandbox.apiKey, 'Service-App-Id': sandbox.appId };
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await fetch(url, { headers }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
    expect(answers.map((a) => a.headers.get('x-ratelimit-remaining'))).toEqual(['1', '0', '0']);
    expect(answers.every((a) => a.headers.get('x-ratelimit-limit') === '2')).toBe(true);
    expect(Number(answers[2]!.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
    expect(Number(answers[2]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(sandbox.violations).toBe(1);
  });
});

describe('rate-limit compliance', () => {
  it('keeps 20 concurrent calls inside 5 requests per 1 s window: all answered, no violation', async () => {
    sandbox.setRateLimit({ limit: 5, windowMs: 1_000 });
    const client = fastClient(sandbox, { attemptTimeoutMs: 2_000, totalBudgetMs: 15_000 });
    const votes = await Promise.all(Array.from({ length: 20 }, (_, i) => client.getVote(memberId(i))));
    expect(votes).toHaveLength(20);
    expect(sandbox.violations).toBe(0);
    expect(sandbox.requestCount('getVote')).toBe(20);
  }, 20_000);

  it('fails at once, sending nothing, when the window stays closed longer than the call may wait', async () => {
    sandbox.setRateLimit({ limit: 2, windowMs: 10_000 });
    const events: RateLimitEvent[] = [];
    const client = fastClient(sandbox, { onRateLimit: (event) => events.push(event) });
    await client.getVote(memberId(1));
    await client.getVote(memberId(2));
    const error = await failure(client.getVote(memberId(3), { budgetMs: 1_500 }));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as RateLimitedError).retryAfterSeconds).toBeGreaterThanOrEqual(9);
    expect((error as RateLimitedError).retryAfterSeconds).toBeLessThanOrEqual(11);
    expect(sandbox.requestCount('getVote')).toBe(2);
    expect(sandbox.violations).toBe(0);
    expect(events).toEqual([expect.objectContaining({ outcome: 'failed_fast' })]);
  });

  it('holds a reply back too: a POST into a closed window fails fast and is never sent', async () => {
    sandbox.setRateLimit({ limit: 1, windowMs: 10_000 });
    const client = fastClient(sandbox);
    await client.getVote(VOTER);
    const error = await failure(client.replyToReview(CRITIC_REVIEW, { content: 'Thanks!', pinned: false }));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(sandbox.requestCount('postReply')).toBe(0);
    expect(sandbox.violations).toBe(0);
  });

  it('makes retries wait for the next window instead of sending into a closed one', async () => {
    sandbox.setRateLimit({ limit: 2, windowMs: 1_000 });
    sandbox.setFault('getVote', { status: 500, times: 2 });
    const events: RateLimitEvent[] = [];
    const client = fastClient(sandbox, { retries: 3, totalBudgetMs: 5_000, onRateLimit: (e) => events.push(e) });
    expect((await client.getVote(VOTER)).voted).toBe(true);
    expect(sandbox.requestCount('getVote')).toBe(3);
    expect(sandbox.violations).toBe(0);
    expect(events.map((e) => e.outcome)).toContain('waited');
  });

  it('after a 429 with Retry-After: 1, sends nothing, from any call, until the second has passed', async () => {
    sandbox.setFault('getVote', { status: 429, retryAfter: '1', times: 1 });
    const client = fastClient(sandbox, { retries: 3, totalBudgetMs: 5_000 });
    const first = client.getVote(VOTER);
    // The 429 is answered: a call started now is held by it (or, until its answer is read, by the unknown window).
    await pollUntil(() => sandbox.requests.length > 0, 'the request answered 429');
    const second = client.getVote(memberId(7));
    await Promise.all([first, second]);
    const [refused, ...after] = sandbox.requests;
    expect(refused).toBeDefined();
    expect(after).toHaveLength(2);
    for (const request of after) expect(request.at - refused!.at).toBeGreaterThanOrEqual(1_000);
  });

  it('lets calls through again once a 429 without rate-limit headers has been waited out', async () => {
    // The limiter reads performance.now: held, and moved past the second Retry-After asks for.
    const clock = holdClock(['performance']);
    try {
      const client = fastClient(sandbox, { retries: 0, totalBudgetMs: 3_000 });
      await client.getVote(VOTER);
      sandbox.setFault('getVote', { status: 429, retryAfter: '1', times: 1 });
      await failure(client.getVote(memberId(1)));
      clock.advance(1_000);
      expect((await client.getVote(memberId(2))).voted).toBe(false);
      expect((await client.getVote(memberId(3))).voted).toBe(false);
      expect(sandbox.requestCount('getVote')).toBe(4);
    } finally {
      clock.release();
    }
  });

  it('does not slow down a service that sends no rate-limit headers: calls run side by side', async () => {
    const client = fastClient(sandbox, { attemptTimeoutMs: 2_000 });
    await client.getVote(VOTER);
    sandbox.setFault('getVote', { latencyMs: 1_000 });
    await Promise.all(Array.from({ length: 5 }, (_, i) => client.getVote(memberId(i))));
    const ats = sandbox.requests.slice(1).map((r) => r.at);
    // One after another they would arrive 1 s apart (4 s from first to last).
    expect(Math.max(...ats) - Math.min(...ats)).toBeLessThan(2_000);
  });
});

describe('the start-up connection check', () => {
  it('says ok when the base URL and credentials work', async () => {
    expect(await fastClient(sandbox).checkConnection()).toEqual({ outcome: 'ok', status: 200 });
  });

  it('names the credential headers it sent when they are refused', async () => {
    const client = fastClient({ ...sandbox, apiKey: 'wrong-key' }, { headerPrefix: 'Guilds' });
    expect(await client.checkConnection()).toEqual({
      outcome: 'credentials_refused',
      status: 401,
      headers: ['Guilds-Api-Key', 'Guilds-App-Id'],
    });
  });

  it('says not found when the base URL points at the wrong place', async () => {
    const client = fastClient({ ...sandbox, baseUrl: `${sandbox.baseUrl}/v1` });
    expect(await client.checkConnection()).toEqual({ outcome: 'not_found', status: 404 });
  });

  it('reports an unreachable service without throwing', async () => {
    sandbox.setFault('listVotes', { reset: true });
    expect(await fastClient(sandbox).checkConnection()).toEqual({ outcome: 'unreachable', detail: expect.any(String) });
  });
});

describe('the connection check (/setup status)', () => {
  it('reports the rate-limit headers it saw, and sends nothing into a closed window', async () => {
    sandbox.setRateLimit({ limit: 2, windowMs: 10_000 });
    const client = fastClient(sandbox, { attemptTimeoutMs: 1_000, totalBudgetMs: 1_500 });
    expect(await client.checkConnection()).toEqual({
      outcome: 'ok',
      status: 200,
      rateLimit: { limit: '2', remaining: '1' },
    });
    await client.checkConnection();
    const sent = sandbox.requestCount('listVotes');
    const closed = await client.checkConnection();
    expect(closed.outcome).toBe('unreachable');
    expect(sandbox.requestCount('listVotes')).toBe(sent);
    expect(sandbox.violations).toBe(0);
  });
});
