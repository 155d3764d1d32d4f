import { describe, expect, it } from '@jest/globals';
import { InvalidResponseError, ReplyOutcomeUnknownError } from '../../src/api/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { useSandbox } from '../support/sandbox-per-file.js';
import { VOTER, VOTER_REVIEW } from '../../tools/seed.js';
import { failure, fastClient } from '../support/service.js';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started));

const MIB = 1024 * 1024;

function reviewWith(content: string) {
  return {
    id: VOTER_REVIEW,
    rating: 4,
    content,
    likes: 0,
    replies: 0,
    created_at: '2025-01-01T00:00:00.000Z',
    authorId: VOTER,
  };
}

describe('bounded reads', () => {
  it('reports a review larger than the 1 MiB default as an invalid response, after one request', async () => {
    sandbox.setReview(reviewWith('**bold** '.repeat((2 * MIB) / 9)));
    // Time enough to read the first MiB on a busy machine: an attempt that timed out first was retried
    // (a transient fault), and the count below told of that, not of the cap (a CI run saw 3 requests).
    const client = fastClient(sandbox, { retries: 3, attemptTimeoutMs: 5_000, totalBudgetMs: 10_000 });
    const error = await failure(client.getReview(VOTER));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toMatch(/larger than the client reads \(SERVICE_MAX_RESPONSE_BYTES\)/);
    expect(sandbox.requestCount('getReview')).toBe(1);
  });

  it('stops reading an endless body at the cap and reports an invalid response instead of waiting for the timeout', async () => {
    sandbox.setFault('listVotes', { endless: true });
    // A budget far beyond the attempt timeout: a timeout would show as ServiceUnavailableError.
    const client = fastClient(sandbox, { attemptTimeoutMs: 20_000, totalBudgetMs: 30_000, retries: 0 });
    const error = await failure(client.listVotes());
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).status).toBe(200);
  });

  it('reads a body up to the configured cap, and refuses one byte more', async () => {
    const body = JSON.stringify({ voted: true, remaining: 1000 });
    sandbox.setFault('getVote', { status: 200, body });
    expect(await fastClient(sandbox, { maxResponseBytes: body.length }).getVote(VOTER)).toEqual({
      voted: true,
      remainingMs: 1000,
    });
    const error = await failure(fastClient(sandbox, { maxResponseBytes: body.length - 1 }).getVote(VOTER));
    expect(error).toBeInstanceOf(InvalidResponseError);
  });

  it('tells a moderator that a reply whose answer never ends may or may not be posted, and sends it once', async () => {
    sandbox.setFault('postReply', { endless: true });
    const error = await failure(
      fastClient(sandbox, { retries: 3 }).replyToReview(VOTER_REVIEW, { content: 'Thanks!', pinned: false }),
    );
    expect(error).toBeInstanceOf(ReplyOutcomeUnknownError);
    expect(sandbox.requestCount('postReply')).toBe(1);
  });
});
