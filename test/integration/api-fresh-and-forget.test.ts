import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { VOTER } from '../../tools/seed.js';
import { fastClient } from '../support/service.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox?.close());
beforeEach(() => sandbox.reset());

describe('the cache and the mirror', () => {
  it('asks the service again for a fresh call, and stores what it got', async () => {
    const client = fastClient(sandbox, { cacheTtlMs: 60_000 });
    await client.listVotes();
    await client.listVotes();
    expect(sandbox.requestCount('listVotes')).toBe(1);
    await client.listVotes({ fresh: true });
    expect(sandbox.requestCount('listVotes')).toBe(2);
    await client.listVotes();
    expect(sandbox.requestCount('listVotes')).toBe(2);
  });

  it("forgets a member's cached vote and review when told they changed", async () => {
    const client = fastClient(sandbox, { cacheTtlMs: 60_000 });
    await client.getVote(VOTER);
    await client.getReview(VOTER);
    client.forgetMember(VOTER);
    await client.getVote(VOTER);
    await client.getReview(VOTER);
    expect(sandbox.requestCount('getVote')).toBe(2);
    expect(sandbox.requestCount('getReview')).toBe(2);
  });
});
