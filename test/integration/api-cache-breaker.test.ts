import { afterEach, describe, expect, it } from '@jest/globals';
import { ServiceUnavailableError, UnauthorizedError } from '../../src/api/index.js';
import type { ServiceClient, ServiceClientOptions } from '../../src/api/index.js';
import { TtlCache } from '../../src/api/cache.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { useSandbox } from '../support/sandbox-per-file.js';
import { holdClock, type HeldClock } from '../support/held-clock.js';
import { failure, fastClient } from '../support/service.js';
import { CRITIC, CRITIC_REVIEW, NOBODY, VOTER } from '../../tools/seed.js';

let sandbox: Sandbox;

const clientFor = (overrides: Partial<ServiceClientOptions> = {}): ServiceClient =>
  fastClient(sandbox, { retries: 0, ...overrides });

/** Settles before any timer can fire: the call answered from what the client holds, with no request or wait. */
const beforeAnyTimer = <T>(promise: Promise<T>): Promise<T | 'waited'> =>
  Promise.race([promise, new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 0))]);

/**
 * The client's cache and breaker read performance.now: held still, and moved by the test past a TTL
 * or a cool-down, while requests and their timers run for real.
 */
let clock: HeldClock | undefined;
const heldClock = (): HeldClock => (clock = holdClock(['performance']));
afterEach(() => {
  clock?.release();
  clock = undefined;
});

useSandbox((started) => (sandbox = started));

describe('concurrent identical GETs', () => {
  it('sends 1 request for 50 concurrent getVote calls of one id, with the cache off', async () => {
    sandbox.setFault('getVote', { latencyMs: 30 });
    const client = clientFor();
    const votes = await Promise.all(Array.from({ length: 50 }, () => client.getVote(VOTER)));
    expect(sandbox.requestCount('getVote')).toBe(1);
    expect(new Set(votes.map((vote) => JSON.stringify(vote))).size).toBe(1);
    expect(votes[0]?.voted).toBe(true);
  });

  it('sends one request per id, and per route, for different keys', async () => {
    const client = clientFor();
    await Promise.all([
      client.getVote(VOTER),
      client.getVote(VOTER),
      client.getVote(NOBODY),
      client.getReview(VOTER),
      client.getReview(VOTER),
    ]);
    expect(sandbox.requestCount('getVote')).toBe(2);
    expect(sandbox.requestCount('getReview')).toBe(1);
  });

  it('shares a failure too: one request, every caller gets the error', async () => {
    sandbox.setFault('getVote', { status: 500, latencyMs: 30 });
    const client = clientFor();
    const errors = await Promise.all(Array.from({ length: 5 }, () => failure(client.getVote(VOTER))));
    for (const error of errors) expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(sandbox.requestCount('getVote')).toBe(1);
  });

  it('ends only the waiting of a caller whose own budget runs out, not the request others await', async () => {
    sandbox.setFault('getVote', { latencyMs: 200 });
    // The shared request outlasts the impatient caller's 50 ms.
    const client = clientFor();
    const [impatient, patient] = await Promise.allSettled([
      client.getVote(VOTER, { budgetMs: 50 }),
      client.getVote(VOTER),
    ]);
    expect(impatient.status).toBe('rejected');
    expect((impatient as PromiseRejectedResult).reason).toBeInstanceOf(ServiceUnavailableError);
    expect(patient).toEqual({ status: 'fulfilled', value: expect.objectContaining({ voted: true }) });
    expect(sandbox.requestCount('getVote')).toBe(1);
  });

  it('ends only the waiting of a caller whose signal aborts', async () => {
    sandbox.setFault('getVote', { latencyMs: 200 });
    const client = clientFor();
    const controller = new AbortController();
    const cancelled = failure(client.getVote(VOTER, { signal: controller.signal }));
    const kept = client.getVote(VOTER);
    controller.abort();
    expect(((await cancelled) as ServiceUnavailableError).reason).toBe('aborted');
    expect((await kept).voted).toBe(true);
    expect(sandbox.requestCount('getVote')).toBe(1);
  });
});

describe('cache', () => {
  it('answers a second getVote within the TTL without a new request', async () => {
    const client = clientFor({ cacheTtlMs: 10_000 });
    const first = await client.getVote(VOTER);
    const second = await client.getVote(VOTER);
    expect(second.voted).toBe(true);
    expect(second.remainingMs).toBeLessThanOrEqual(first.remainingMs!);
    expect(second.remainingMs).toBeGreaterThan(first.remainingMs! - 1000);
    expect(sandbox.requestCount('getVote')).toBe(1);
  });

  it('counts a cached vote’s remaining time down instead of repeating the stale figure', async () => {
    const clock = heldClock();
    const client = clientFor({ cacheTtlMs: 10_000 });
    const first = await client.getVote(VOTER);
    const firstList = await client.listVotes();
    clock.advance(120);
    const second = await client.getVote(VOTER);
    const secondList = await client.listVotes();
    expect(sandbox.requestCount()).toBe(2);
    expect(first.remainingMs! - second.remainingMs!).toBeGreaterThanOrEqual(100);
    const entry = (list: typeof firstList) => list.votes.find((vote) => vote.userId === VOTER)?.remainingMs ?? 0;
    expect(entry(firstList) - entry(secondList)).toBeGreaterThanOrEqual(100);
  });

  it('asks again once the TTL has passed', async () => {
    const clock = heldClock();
    const client = clientFor({ cacheTtlMs: 80 });
    await client.listVotes();
    clock.advance(79);
    await client.listVotes();
    expect(sandbox.requestCount('listVotes')).toBe(1);
    clock.advance(2);
    await client.listVotes();
    expect(sandbox.requestCount('listVotes')).toBe(2);
  });

  it('keeps not voted only for the short TTL, while a vote stays cached', async () => {
    const clock = heldClock();
    const client = clientFor({ cacheTtlMs: 10_000, notVotedTtlMs: 80 });
    expect((await client.getVote(NOBODY)).voted).toBe(false);
    await client.getVote(VOTER);
    await client.getVote(NOBODY);
    expect(sandbox.requestCount('getVote')).toBe(2);
    // The member votes right after checking: the next check past the short TTL sees it.
    sandbox.setVote(NOBODY, 12 * 3_600_000);
    clock.advance(120);
    expect((await client.getVote(NOBODY)).voted).toBe(true);
    await client.getVote(VOTER);
    expect(sandbox.requestCount('getVote')).toBe(3);
  });

  it('keeps a missing review only for the short TTL', async () => {
    const clock = heldClock();
    const client = clientFor({ cacheTtlMs: 10_000, notVotedTtlMs: 80 });
    expect(await client.getReview(NOBODY)).toBeNull();
    expect(await client.getReview(NOBODY)).toBeNull();
    expect(sandbox.requestCount('getReview')).toBe(1);
    clock.advance(120);
    await client.getReview(NOBODY);
    expect(sandbox.requestCount('getReview')).toBe(2);
  });

  it('caches nothing when cacheTtlMs is 0', async () => {
    const client = clientFor({ cacheTtlMs: 0 });
    await client.getVote(VOTER);
    await client.getVote(VOTER);
    await client.getVote(NOBODY);
    await client.getVote(NOBODY);
    expect(sandbox.requestCount('getVote')).toBe(4);
  });

  it('never caches an error', async () => {
    sandbox.setFault('getVote', { status: 500, times: 1 });
    const client = clientFor({ cacheTtlMs: 10_000 });
    expect(await failure(client.getVote(VOTER))).toBeInstanceOf(ServiceUnavailableError);
    expect((await client.getVote(VOTER)).voted).toBe(true);
    expect(sandbox.requestCount('getVote')).toBe(2);
  });

  it('drops the cached review on a reply, so the next read shows the new reply count', async () => {
    const client = clientFor({ cacheTtlMs: 10_000 });
    const before = await client.getReview(CRITIC);
    expect(before?.replies).toBe(3);
    expect((await client.getReview(CRITIC))?.replies).toBe(3);
    expect(sandbox.requestCount('getReview')).toBe(1);
    await client.replyToReview(CRITIC_REVIEW, { content: 'Sorry about the 3am ping.', pinned: false });
    expect((await client.getReview(CRITIC))?.replies).toBe(4);
    expect(sandbox.requestCount('getReview')).toBe(2);
  });

  it('keeps other cached reviews when a reply goes to one review', async () => {
    const client = clientFor({ cacheTtlMs: 10_000 });
    await client.getReview(VOTER);
    await client.getReview(CRITIC);
    await client.replyToReview(CRITIC_REVIEW, { content: 'Thanks', pinned: false });
    await client.getReview(VOTER);
    expect(sandbox.requestCount('getReview')).toBe(2);
  });

  it('bounds its size, dropping the oldest entries first', () => {
    const cache = new TtlCache<number>(3);
    for (let i = 0; i < 5; i += 1) cache.set(`k${i}`, i, 60_000);
    expect(cache.size).toBe(3);
    expect(cache.get('k0')).toBeUndefined();
    expect(cache.get('k1')).toBeUndefined();
    expect(cache.get('k4')?.value).toBe(4);
  });

  it('holds at most 10,000 results however many members are looked up', async () => {
    const cache = new TtlCache<number>();
    for (let i = 0; i < 100_000; i += 1) cache.set(`getVote:${i}`, i, 60_000);
    expect(cache.size).toBe(10_000);
    expect(cache.get('getVote:99999')?.value).toBe(99_999);
  });
});

describe('circuit breaker', () => {
  it('opens after 3 failed calls, fails fast with no request, and closes after the cool-down', async () => {
    sandbox.setFault('getVote', { status: 500 });
    const clock = heldClock();
    const client = clientFor({ breakerThreshold: 3, breakerCooldownMs: 200 });
    for (let i = 0; i < 3; i += 1) {
      expect(((await failure(client.getVote(VOTER))) as ServiceUnavailableError).reason).toBe('retries_exhausted');
    }
    // One request a failed call (no retries), or none when its kept-alive connection was closed under it
    // (a loaded run saw 2 for 3): either way a failure the breaker counts.
    const reached = sandbox.requestCount();
    expect(reached).toBeGreaterThanOrEqual(1);
    expect(reached).toBeLessThanOrEqual(3);

    const fast = await beforeAnyTimer(failure(client.listVotes()));
    expect(fast).toBeInstanceOf(ServiceUnavailableError);
    expect((fast as ServiceUnavailableError).reason).toBe('circuit_open');
    expect(
      ((await failure(client.replyToReview(CRITIC_REVIEW, { content: 'x', pinned: false }))) as ServiceUnavailableError)
        .reason,
    ).toBe('circuit_open');
    expect(sandbox.requestCount()).toBe(reached);

    sandbox.clearFaults();
    clock.advance(199);
    expect(((await failure(client.getVote(VOTER))) as ServiceUnavailableError).reason).toBe('circuit_open');
    expect(sandbox.requestCount()).toBe(reached);
    clock.advance(1);
    expect((await client.getVote(VOTER)).voted).toBe(true);
    expect(sandbox.requestCount()).toBe(reached + 1);
    // Closed again: calls go through.
    await client.listVotes();
    expect(sandbox.requestCount()).toBe(reached + 2);
  });

  it('lets a single trial call through after the cool-down, and reopens when it fails', async () => {
    sandbox.setFault('*', { status: 503 });
    const clock = heldClock();
    const client = clientFor({ breakerThreshold: 2, breakerCooldownMs: 150 });
    await failure(client.getVote(VOTER));
    await failure(client.getVote(VOTER));
    clock.advance(150);
    sandbox.setFault('*', { status: 503, latencyMs: 50 });
    // The first call after the cool-down is the trial; one started while it runs fails fast.
    const [trial, other] = await Promise.all([failure(client.getVote(VOTER)), failure(client.listVotes())]);
    expect((trial as ServiceUnavailableError).reason).toBe('retries_exhausted');
    expect((other as ServiceUnavailableError).reason).toBe('circuit_open');
    expect(sandbox.requestCount()).toBe(3);
    // The trial failed: open again, for a whole new cool-down.
    expect(((await failure(client.getVote(VOTER))) as ServiceUnavailableError).reason).toBe('circuit_open');
    expect(sandbox.requestCount()).toBe(3);
  });

  it('counts timeouts as failures', async () => {
    sandbox.setFault('getVote', { latencyMs: 200 });
    const client = clientFor({ attemptTimeoutMs: 50, breakerThreshold: 2, breakerCooldownMs: 10_000 });
    expect(((await failure(client.getVote(VOTER))) as ServiceUnavailableError).reason).toBe('timeout');
    expect(((await failure(client.getVote(VOTER))) as ServiceUnavailableError).reason).toBe('timeout');
    expect(((await failure(client.getVote(VOTER))) as ServiceUnavailableError).reason).toBe('circuit_open');
    expect(sandbox.requestCount()).toBe(2);
  });

  it('does not open on 401s, missing reviews, invalid responses or bad input', async () => {
    const client = clientFor({ breakerThreshold: 2, breakerCooldownMs: 10_000 });
    sandbox.setFault('getVote', { status: 401 });
    expect(await failure(client.getVote(VOTER))).toBeInstanceOf(UnauthorizedError);
    expect(await failure(client.getVote(VOTER))).toBeInstanceOf(UnauthorizedError);
    sandbox.setFault('getVote', { malformed: true });
    await failure(client.getVote(VOTER));
    await failure(client.getVote(VOTER));
    await failure(client.replyToReview('rev_missing', { content: 'x', pinned: false }));
    await failure(client.replyToReview('rev_missing', { content: 'x', pinned: false }));
    await failure(client.getVote('not-an-id'));
    await failure(client.getVote('not-an-id'));
    sandbox.clearFaults();
    expect((await client.getVote(VOTER)).voted).toBe(true);
    expect(sandbox.requestCount()).toBe(7);
  });

  it('resets the count after a success: failures must be consecutive', async () => {
    const client = clientFor({ breakerThreshold: 2, breakerCooldownMs: 10_000 });
    sandbox.setFault('getVote', { status: 500, times: 1 });
    await failure(client.getVote(VOTER));
    await client.getVote(VOTER);
    sandbox.setFault('getVote', { status: 500, times: 1 });
    await failure(client.getVote(VOTER));
    expect((await client.getVote(VOTER)).voted).toBe(true);
    expect(sandbox.requestCount()).toBe(4);
  });

  it('serves cached results while the circuit is open', async () => {
    const client = clientFor({ cacheTtlMs: 10_000, breakerThreshold: 1, breakerCooldownMs: 10_000 });
    await client.getVote(VOTER);
    sandbox.setFault('*', { status: 500 });
    await failure(client.listVotes());
    expect((await client.getVote(VOTER)).voted).toBe(true);
    expect(((await failure(client.listVotes())) as ServiceUnavailableError).reason).toBe('circuit_open');
    expect(sandbox.requestCount()).toBe(2);
  });
});
