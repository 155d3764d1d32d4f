import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import {
  createServiceClient,
  InvalidInputError,
  InvalidResponseError,
  ReplyOutcomeUnknownError,
  parseBaseUrl,
  ReviewNotFoundError,
  UnauthorizedError,
} from '../../src/api/index.js';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { useSandbox } from '../support/sandbox-per-file.js';
import { failure, fastClient } from '../support/service.js';
import { CRITIC, CRITIC_REVIEW, NOBODY, VOTER, VOTER_REVIEW } from '../../tools/seed.js';

// Seed fixtures (src/sandbox/seed.json).

let sandbox: Sandbox;

/** A client with small timings and no cache or breaker, so each test sees every request. */
useSandbox((started) => (sandbox = started));

describe('requests the client sends', () => {
  it('sends Service-Api-Key, Service-App-Id, Accept and a User-Agent on every GET', async () => {
    const client = fastClient(sandbox);
    await client.getVote(VOTER);
    await client.listVotes();
    await client.getReview(VOTER);
    expect(sandbox.requests).toHaveLength(3);
    for (const request of sandbox.requests) {
      expect(request.headers['service-api-key']).toBe(sandbox.apiKey);
      expect(request.headers['service-app-id']).toBe(sandbox.appId);
      expect(request.headers.accept).toBe('application/json');
      expect(request.headers['user-agent']).toMatch(/^vote-review-bot\//);
      expect(request.headers['content-type']).toBeUndefined();
    }
  });

  it('names the credential headers exactly Service-Api-Key and Service-App-Id on the wire', async () => {
    // Node lower-cases parsed header names, so the raw header list is read from a bare server.
    let rawNames: string[] = [];
    const server = createServer((req, res) => {
      rawNames = req.rawHeaders.filter((_, index) => index % 2 === 0);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"voted":true,"remaining":5}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = createServiceClient({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'k', appId: 'a' });
      await client.getVote(VOTER);
      expect(rawNames).toEqual(expect.arrayContaining(['Service-Api-Key', 'Service-App-Id']));
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('sends Guilds-Api-Key and Guilds-App-Id when headerPrefix is Guilds', async () => {
    const guilds = await startSandbox({ headerPrefix: 'Guilds' });
    try {
      const vote = await fastClient(guilds, { headerPrefix: 'Guilds' }).getVote(VOTER);
      expect(vote.voted).toBe(true);
      expect(guilds.requestCount()).toBe(1);
      const [request] = guilds.requests;
      expect(request?.headers['guilds-api-key']).toBe(guilds.apiKey);
      expect(request?.headers['guilds-app-id']).toBe(guilds.appId);
      expect(request?.headers['service-api-key']).toBeUndefined();
    } finally {
      await guilds.close();
    }
  });

  it('posts a JSON body with the content trimmed and pinned always sent', async () => {
    const reply = await fastClient(sandbox).replyToReview(CRITIC_REVIEW, {
      content: '  Thanks for the feedback!  ',
      pinned: false,
    });
    expect(reply.id).toEqual(expect.any(String));
    expect(sandbox.requestCount('postReply')).toBe(1);
    const [request] = sandbox.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe(`/v1/reviews/${CRITIC_REVIEW}`);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers.accept).toBe('application/json');
    expect(request?.headers['user-agent']).toMatch(/^vote-review-bot\//);
    expect(request?.headers['service-api-key']).toBe(sandbox.apiKey);
    expect(request?.headers['service-app-id']).toBe(sandbox.appId);
    expect(JSON.parse(request?.body ?? '')).toEqual({ content: 'Thanks for the feedback!', pinned: false });
    expect(sandbox.repliesTo(CRITIC_REVIEW)).toEqual([
      { id: reply.id, content: 'Thanks for the feedback!', pinned: false },
    ]);
  });

  it('URL-encodes the review id in the path', async () => {
    const error = await failure(fastClient(sandbox).replyToReview('rev/x?y#z', { content: 'hi', pinned: true }));
    expect(error).toBeInstanceOf(ReviewNotFoundError);
    expect(sandbox.requests.map((request) => request.path)).toEqual(['/v1/reviews/rev%2Fx%3Fy%23z']);
  });
});

describe('base URL', () => {
  it('keeps the /v1 segment without a trailing slash', async () => {
    await fastClient(sandbox, { baseUrl: sandbox.baseUrl.replace(/\/$/, '') }).getVote(VOTER);
    expect(sandbox.requests.map((request) => request.path)).toEqual([`/v1/votes/${VOTER}`]);
  });

  it('keeps the /v1 segment with a trailing slash', async () => {
    await fastClient(sandbox, { baseUrl: `${sandbox.baseUrl}/` }).listVotes();
    expect(sandbox.requests.map((request) => request.path)).toEqual(['/v1/votes']);
  });

  it('refuses http://example.com with a message asking for https', () => {
    expect(() => parseBaseUrl('http://example.com/v1')).toThrow(InvalidInputError);
    expect(() => parseBaseUrl('http://example.com/v1')).toThrow(/must use https/);
    const error = (() => {
      try {
        createServiceClient({ baseUrl: 'http://example.com/v1', apiKey: 'k', appId: 'a' });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).field).toBe('baseUrl');
  });

  it('accepts http only on loopback: 127.0.0.0/8, localhost and ::1', () => {
    expect(parseBaseUrl('http://127.0.0.1:8080/v1')).toBe('http://127.0.0.1:8080/v1');
    expect(parseBaseUrl('http://127.9.8.7/v1/')).toBe('http://127.9.8.7/v1');
    expect(parseBaseUrl('http://localhost:3000/v1')).toBe('http://localhost:3000/v1');
    expect(parseBaseUrl('http://[::1]:3000/v1')).toBe('http://[::1]:3000/v1');
    expect(parseBaseUrl('https://api.example.com/v1/')).toBe('https://api.example.com/v1');
    expect(() => parseBaseUrl('http://128.0.0.1/v1')).toThrow(InvalidInputError);
    expect(() => parseBaseUrl('http://localhost.example.com/v1')).toThrow(InvalidInputError);
  });

  it('refuses a base URL that is not absolute, not http(s), or carries credentials or a query', () => {
    for (const raw of [
      'api.example.com/v1',
      'ftp://example.com/v1',
      'https://user:pw@example.com/v1',
      'https://example.com/v1?x=1',
    ]) {
      expect(() => parseBaseUrl(raw)).toThrow(InvalidInputError);
    }
  });
});

describe('input checked before any request', () => {
  it.each([
    ['../x'],
    ['123'],
    [''],
    [' 284102390141648897'],
    ['284102390141648897/'],
    ['1'.repeat(21)],
    ['２８４１０２３９０１４１６４８８９７'],
  ])('rejects user id %j with no request made', async (userId) => {
    const client = fastClient(sandbox);
    for (const call of [() => client.getVote(userId), () => client.getReview(userId)]) {
      const error = await failure(call());
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as InvalidInputError).field).toBe('userId');
      expect((error as Error).message).toBe('User id must be a Discord snowflake (17–20 digits).');
    }
    expect(sandbox.requestCount()).toBe(0);
  });

  it.each([[''], ['r'.repeat(81)], ['rev 1'], ['rev\n1'], ['rev\u00001'], ['..'], ['.']])(
    'rejects review id %j with no request made',
    async (reviewId) => {
      const error = await failure(fastClient(sandbox).replyToReview(reviewId, { content: 'hi', pinned: false }));
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as InvalidInputError).field).toBe('reviewId');
      expect(sandbox.requestCount()).toBe(0);
    },
  );

  it('rejects empty, blank and over-long reply content, and a pinned that is not a boolean, with no request made', async () => {
    const client = fastClient(sandbox);
    const cases: Array<[unknown, string, RegExp]> = [
      [{ content: '', pinned: false }, 'content', /1–1000 characters after trimming \(got 0\)/],
      [{ content: ' \n\t ', pinned: false }, 'content', /1–1000 characters/],
      [{ content: 'x'.repeat(1001), pinned: false }, 'content', /got 1001/],
      [{ content: 42, pinned: false }, 'content', /must be a string/],
      [{ content: 'hi' }, 'pinned', /true or false/],
      [{ content: 'hi', pinned: 'false' }, 'pinned', /true or false/],
      [null, 'reply', /must be an object/],
    ];
    for (const [input, field, message] of cases) {
      const error = await failure(client.replyToReview(CRITIC_REVIEW, input as never));
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as InvalidInputError).field).toBe(field);
      expect((error as Error).message).toMatch(message);
    }
    expect(sandbox.requestCount()).toBe(0);
  });

  it('accepts a reply of exactly 1000 characters once the surrounding spaces are trimmed', async () => {
    await fastClient(sandbox).replyToReview(CRITIC_REVIEW, { content: `  ${'x'.repeat(1000)}  `, pinned: true });
    expect(sandbox.repliesTo(CRITIC_REVIEW)).toEqual([
      expect.objectContaining({ content: 'x'.repeat(1000), pinned: true }),
    ]);
  });
});

describe('results', () => {
  it('returns an active vote with its remaining time in ms', async () => {
    const vote = await fastClient(sandbox).getVote(VOTER);
    expect(vote.voted).toBe(true);
    expect(vote.remainingMs).toBeGreaterThan(0);
    expect(sandbox.requestCount('getVote')).toBe(1);
  });

  it('returns not voted with a null remaining time for a member without a vote', async () => {
    expect(await fastClient(sandbox).getVote(NOBODY)).toEqual({ voted: false, remainingMs: null });
  });

  it('reads the vote list, the platform flag from the key discord as viaDiscord', async () => {
    const list = await fastClient(sandbox).listVotes();
    expect(list.totalVotes).toBe(4812);
    expect(list.monthlyVotes).toBe(367);
    expect(list.votes.find((entry) => entry.userId === VOTER)).toEqual({
      userId: VOTER,
      remainingMs: expect.any(Number),
      viaDiscord: true,
    });
    expect(list.votes.find((entry) => entry.userId === '272487098191537099')?.viaDiscord).toBe(false);
  });

  it('returns a review with created_at as a Date', async () => {
    const review = await fastClient(sandbox).getReview(VOTER);
    const wire = sandbox.getReviewById(VOTER_REVIEW);
    expect(review).toEqual({
      id: VOTER_REVIEW,
      rating: 5,
      content: wire?.content,
      likes: wire?.likes,
      replies: wire?.replies,
      createdAt: new Date(wire?.created_at ?? ''),
      authorId: VOTER,
    });
    expect(review?.createdAt).toBeInstanceOf(Date);
  });

  it('returns the reply id from a 201', async () => {
    const reply = await fastClient(sandbox).replyToReview(VOTER_REVIEW, { content: 'Thank you!', pinned: true });
    expect(sandbox.repliesTo(VOTER_REVIEW).map((stored) => stored.id)).toEqual([reply.id]);
  });

  it('accepts any 2xx with a string id as a posted reply', async () => {
    sandbox.setFault('postReply', { status: 200, body: '{"id":"reply_1","extra":true}' });
    expect(await fastClient(sandbox).replyToReview(VOTER_REVIEW, { content: 'ok', pinned: false })).toEqual({
      id: 'reply_1',
    });
    sandbox.setFault('postReply', { status: 202, body: '{"id":"reply_2"}' });
    expect(await fastClient(sandbox).replyToReview(VOTER_REVIEW, { content: 'ok', pinned: false })).toEqual({
      id: 'reply_2',
    });
  });
});

describe('tolerant reading of what the spec leaves open', () => {
  it.each([
    ['voted absent means false', '{"remaining":1000}', { voted: false, remainingMs: 1000 }],
    ['remaining absent means null', '{"voted":false}', { voted: false, remainingMs: null }],
    ['remaining null stays null', '{"voted":true,"remaining":null}', { voted: true, remainingMs: null }],
    [
      'unknown fields are ignored',
      '{"voted":true,"remaining":60000,"platform":"x","nested":{"a":1}}',
      { voted: true, remainingMs: 60000 },
    ],
  ])('reads a vote check where %s', async (_, body, expected) => {
    sandbox.setFault('getVote', { status: 200, body });
    expect(await fastClient(sandbox).getVote(VOTER)).toEqual(expected);
  });

  it('reads list entries without discord as not via Discord and their remaining as ms', async () => {
    sandbox.setFault('listVotes', {
      status: 200,
      body: JSON.stringify({
        totalVotes: 2,
        monthlyVotes: 1,
        extra: 'ignored',
        votes: [
          { userId: VOTER, remaining: 3_600_000, discord: true, extra: 1 },
          { userId: CRITIC, remaining: 90_000 },
        ],
      }),
    });
    // Ordered soonest to run out first by the client, once, whatever order the service sends.
    expect(await fastClient(sandbox).listVotes()).toEqual({
      totalVotes: 2,
      monthlyVotes: 1,
      votes: [
        { userId: CRITIC, remainingMs: 90_000, viaDiscord: false },
        { userId: VOTER, remainingMs: 3_600_000, viaDiscord: true },
      ],
    });
  });

  it.each([
    ['a 404', { status: 404 }],
    ['an empty body', { status: 200, body: '' }],
    ['null', { status: 200, body: 'null' }],
    ['{}', { status: 200, body: '{}' }],
    ['an {error} body', { status: 200, body: '{"error":"Unknown User"}' }],
    ['a 400 with an {error} body', { status: 400, body: '{"error":"Unknown User"}' }],
  ])('getReview returns null for %s, after one request', async (_, fault) => {
    sandbox.setFault('getReview', fault);
    expect(await fastClient(sandbox, { retries: 3 }).getReview(VOTER)).toBeNull();
    expect(sandbox.requestCount('getReview')).toBe(1);
  });

  it('getReview returns null for the sandbox’s own answer to a member without a review', async () => {
    expect(await fastClient(sandbox).getReview(NOBODY)).toBeNull();
  });
});

describe('answers the client refuses', () => {
  it('reports malformed JSON as an invalid response after 1 request, not retried', async () => {
    sandbox.setFault('getVote', { malformed: true });
    const error = await failure(fastClient(sandbox, { retries: 3 }).getVote(VOTER));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toMatch(/not JSON/);
    expect(sandbox.requestCount('getVote')).toBe(1);
  });

  it.each([
    ['a vote with voted as a string', 'getVote', '{"voted":"yes","remaining":1}'],
    ['a list without totals', 'listVotes', '{"votes":[]}'],
    ['a list entry without userId', 'listVotes', '{"totalVotes":1,"monthlyVotes":1,"votes":[{"remaining":1}]}'],
    ['a rating of 6', 'getReview', review({ rating: 6 })],
    ['a rating of 0', 'getReview', review({ rating: 0 })],
    ['a rating of 4.5', 'getReview', review({ rating: 4.5 })],
    ['an unparseable created_at', 'getReview', review({ created_at: 'last tuesday' })],
    ['a review without an id', 'getReview', review({ id: undefined })],
  ] as const)('reports %s as an invalid response after 1 request, not retried', async (_, route, body) => {
    sandbox.setFault(route, { status: 200, body });
    const client = fastClient(sandbox, { retries: 3 });
    const call =
      route === 'getVote'
        ? client.getVote(VOTER)
        : route === 'listVotes'
          ? client.listVotes()
          : client.getReview(VOTER);
    const error = await failure(call);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).status).toBe(200);
    expect(sandbox.requestCount(route)).toBe(1);
  });

  it.each([[400], [403], [404], [409], [422]])('does not retry a GET answered %i', async (status) => {
    sandbox.setFault('getVote', { status });
    const error = await failure(fastClient(sandbox, { retries: 3 }).getVote(VOTER));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).status).toBe(status);
    expect(sandbox.requestCount('getVote')).toBe(1);
  });

  it('reports a POST 2xx without a reply id as an unknown outcome after 1 request, so nobody sends it twice', async () => {
    sandbox.setFault('postReply', { status: 201, body: '{"ok":true}' });
    const error = await failure(
      fastClient(sandbox, { retries: 3 }).replyToReview(VOTER_REVIEW, { content: 'x', pinned: false }),
    );
    expect(error).toBeInstanceOf(ReplyOutcomeUnknownError);
    expect(sandbox.requestCount('postReply')).toBe(1);
  });
});

describe('errors the service reports', () => {
  it('gives an unauthorized error for a wrong key, without the key in its message, after 1 request', async () => {
    const wrongKey = 'sk_wrong_Zq81xLmP3';
    const client = createServiceClient({
      baseUrl: sandbox.baseUrl,
      apiKey: wrongKey,
      appId: sandbox.appId,
      retries: 3,
      minRetryDelayMs: 10,
    });
    const error = await failure(client.getVote(VOTER));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as UnauthorizedError).code).toBe('unauthorized');
    expect((error as Error).message).not.toContain(wrongKey);
    expect(sandbox.requestCount()).toBe(1);
  });

  it('gives an unauthorized error on every route, never retried', async () => {
    const client = createServiceClient({
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      appId: 'wrong-app',
      retries: 3,
      minRetryDelayMs: 10,
    });
    for (const call of [
      () => client.getVote(VOTER),
      () => client.listVotes(),
      () => client.getReview(VOTER),
      () => client.replyToReview(VOTER_REVIEW, { content: 'x', pinned: false }),
    ]) {
      expect(await failure(call())).toBeInstanceOf(UnauthorizedError);
    }
    expect(sandbox.requestCount()).toBe(4);
  });

  it('reads a 401 whose body carries message, or no body at all, as unauthorized', async () => {
    const client = fastClient(sandbox, { retries: 3 });
    sandbox.setFault('*', {
      status: 401,
      body: '{"status":401,"error":"Unauthorised","message":"Invalid API key"}',
      times: 1,
    });
    expect(await failure(client.getVote(VOTER))).toBeInstanceOf(UnauthorizedError);
    sandbox.setFault('*', { status: 401, body: '', times: 1 });
    expect(await failure(client.getReview(VOTER))).toBeInstanceOf(UnauthorizedError);
    expect(sandbox.requestCount()).toBe(2);
  });

  it('gives review-not-found for an unknown review id', async () => {
    const error = await failure(fastClient(sandbox).replyToReview('rev_doesNotExist', { content: 'x', pinned: false }));
    expect(error).toBeInstanceOf(ReviewNotFoundError);
    expect((error as ReviewNotFoundError).reviewId).toBe('rev_doesNotExist');
    expect(sandbox.requestCount('postReply')).toBe(1);
  });

  it('gives review-not-found for an Unknown Review body at any status, even 200', async () => {
    sandbox.setFault('postReply', { status: 200, body: '{"error":"Unknown Review"}' });
    expect(
      await failure(fastClient(sandbox).replyToReview(VOTER_REVIEW, { content: 'x', pinned: false })),
    ).toBeInstanceOf(ReviewNotFoundError);
  });

  it('gives an invalid-input error quoting the service for another 4xx with an {error} body', async () => {
    sandbox.setFault('postReply', { status: 400, body: '{"error":"content must be a non-empty string"}' });
    const error = await failure(
      fastClient(sandbox, { retries: 3 }).replyToReview(VOTER_REVIEW, { content: 'x', pinned: false }),
    );
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).field).toBe('reply');
    expect((error as Error).message).toBe('The service refused the reply: content must be a non-empty string');
    expect(sandbox.requestCount('postReply')).toBe(1);
  });
});

describe('layering', () => {
  it('has nothing under src/api import discord.js', () => {
    const dir = new URL('../../src/api/', import.meta.url);
    const files = readdirSync(dir).filter((name) => name.endsWith('.ts'));
    expect(files).toEqual(expect.arrayContaining(['client.ts', 'request.ts', 'index.ts']));
    for (const name of files) {
      expect(readFileSync(new URL(name, dir), 'utf8')).not.toMatch(/from\s+['"](discord\.js|@discordjs\/)/);
    }
  });
});

function review(overrides: Record<string, unknown>): string {
  return JSON.stringify({
    id: 'rev_x',
    rating: 3,
    content: 'fine',
    likes: 0,
    replies: 0,
    created_at: '2025-01-01T00:00:00.000Z',
    authorId: VOTER,
    ...overrides,
  });
}
