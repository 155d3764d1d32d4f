import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  InvalidInputError,
  InvalidResponseError,
  ReplyOutcomeUnknownError,
  ReviewNotFoundError,
  type ServiceError,
  ServiceUnavailableError,
  UnauthorizedError,
} from '../../src/api/index.js';
import type { AttemptInfo, ServiceClient, ServiceClientOptions } from '../../src/api/index.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { pollUntil } from '../support/poll-until.js';
import { fastClient } from '../support/service.js';
import { closedPort } from '../../tools/closed-port.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { VOTER, VOTER_REVIEW } from '../../tools/seed.js';

const API_KEY = 'sk_live_SECRETKEY_Xq7Lm2Pz9Wv4';
const APP_ID = 'app_SECRETAPPID_Hd83Kq1';
const WRONG_KEY = 'sk_live_WRONGKEY_Tb55Ng0';
const SECRETS = [API_KEY, APP_ID, WRONG_KEY, 'SECRETKEY', 'SECRETAPPID', 'WRONGKEY'];

const REPLY = { content: 'Thanks!', pinned: false };

/** For the cases about time running out; the others keep fastClient's generous bounds, which a busy machine never meets. */
const SHORT = { attemptTimeoutMs: 100, totalBudgetMs: 1000 };

let sandbox: Sandbox;
const attempts: AttemptInfo[] = [];

function clientFor(overrides: Partial<ServiceClientOptions> = {}): ServiceClient {
  return fastClient(
    { baseUrl: sandbox.baseUrl, apiKey: API_KEY, appId: APP_ID },
    {
      retries: 1,
      minRetryDelayMs: 5,
      maxRetryDelayMs: 10,
      onAttempt: (info) => attempts.push(info),
      ...overrides,
    },
  );
}

async function caught(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

/** Every text an error shows: its string, stack, JSON, inspection, and the same for each cause. */
function everyRendering(error: unknown): string[] {
  const texts: string[] = [];
  for (let current = error, depth = 0; current !== undefined && depth < 10; depth += 1) {
    texts.push(
      String(current),
      (current as Error).stack ?? '',
      JSON.stringify(current) ?? '',
      inspect(current, { depth: 5 }),
    );
    current = (current as { cause?: unknown }).cause;
  }
  return texts;
}

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: API_KEY, appId: APP_ID });
});
afterAll(async () => {
  await sandbox.close();
});

describe('secrets', () => {
  it('never puts the API key or app id in any error, its stack, its JSON or its causes', async () => {
    const closed = await closedPort();
    const fault = (route: Parameters<Sandbox['setFault']>[0], spec: Parameters<Sandbox['setFault']>[1]) => () => {
      sandbox.reset();
      sandbox.setFault(route, spec);
    };
    const none = () => sandbox.reset();

    const cases: Array<{
      kind: new (...args: never[]) => ServiceError;
      setup: () => void;
      run: () => unknown;
      reason?: string;
    }> = [
      { kind: InvalidInputError, setup: none, run: () => clientFor().getVote('../x') },
      { kind: InvalidInputError, setup: none, run: () => clientFor().replyToReview('bad id', REPLY) },
      { kind: InvalidInputError, setup: none, run: () => clientFor({ baseUrl: 'http://example.com/v1' }) },
      { kind: InvalidInputError, setup: none, run: () => clientFor({ apiKey: `${API_KEY}\r\nX: y` }) },
      { kind: InvalidInputError, setup: none, run: () => clientFor({ appId: `${APP_ID} ` }) },
      {
        kind: InvalidInputError,
        setup: fault('postReply', { status: 400, body: '{"error":"Bad reply"}' }),
        run: () => clientFor().replyToReview(VOTER_REVIEW, REPLY),
      },
      { kind: UnauthorizedError, setup: none, run: () => clientFor({ apiKey: WRONG_KEY }).getVote(VOTER) },
      {
        kind: UnauthorizedError,
        setup: none,
        run: () => clientFor({ apiKey: WRONG_KEY }).replyToReview(VOTER_REVIEW, REPLY),
      },
      { kind: ReviewNotFoundError, setup: none, run: () => clientFor().replyToReview('rev_missing', REPLY) },
      {
        kind: InvalidResponseError,
        setup: fault('getVote', { malformed: true }),
        run: () => clientFor().getVote(VOTER),
      },
      {
        kind: InvalidResponseError,
        setup: fault('getReview', { status: 200, body: '{"id":"r","rating":9}' }),
        run: () => clientFor().getReview(VOTER),
      },
      {
        kind: ServiceUnavailableError,
        reason: 'retries_exhausted',
        setup: fault('getVote', { status: 503 }),
        run: () => clientFor().getVote(VOTER),
      },
      {
        kind: ServiceUnavailableError,
        reason: 'timeout',
        setup: fault('getVote', { trickleMs: 60 }),
        run: () => clientFor(SHORT).getVote(VOTER),
      },
      {
        kind: ServiceUnavailableError,
        reason: 'rate_limited',
        setup: fault('getVote', { status: 429, retryAfter: '60' }),
        run: () => clientFor().getVote(VOTER),
      },
      {
        kind: ServiceUnavailableError,
        reason: 'aborted',
        setup: fault('getVote', { latencyMs: 300 }),
        run: () => clientFor().getVote(VOTER, { signal: AbortSignal.timeout(20) }),
      },
      {
        kind: ServiceUnavailableError,
        reason: 'retries_exhausted',
        setup: none,
        run: () => clientFor({ baseUrl: `http://127.0.0.1:${closed}/v1` }).replyToReview(VOTER_REVIEW, REPLY),
      },
      {
        kind: ServiceUnavailableError,
        reason: 'circuit_open',
        setup: fault('*', { status: 500 }),
        run: async () => {
          const client = clientFor({ breakerThreshold: 1 });
          await client.listVotes().catch(() => undefined);
          return client.listVotes();
        },
      },
      {
        kind: ReplyOutcomeUnknownError,
        setup: fault('postReply', { status: 500 }),
        run: () => clientFor().replyToReview(VOTER_REVIEW, REPLY),
      },
      {
        kind: ReplyOutcomeUnknownError,
        setup: fault('postReply', { reset: true }),
        run: () => clientFor().replyToReview(VOTER_REVIEW, REPLY),
      },
      {
        kind: ReplyOutcomeUnknownError,
        setup: fault('postReply', { latencyMs: 300 }),
        run: () => clientFor(SHORT).replyToReview(VOTER_REVIEW, REPLY),
      },
    ];

    const seen = new Set<string>();
    for (const { kind, setup, run, reason } of cases) {
      setup();
      const error = await caught(run);
      expect(error).toBeInstanceOf(kind);
      if (reason !== undefined) expect((error as ServiceUnavailableError).reason).toBe(reason);
      seen.add(`${(error as ServiceError).code}:${(error as { reason?: string }).reason ?? ''}`);
      for (const text of everyRendering(error)) {
        for (const secret of SECRETS) expect(text).not.toContain(secret);
      }
    }
    // Every error kind, and every unavailable reason the client produces, was provoked.
    expect([...seen].sort()).toEqual([
      'invalid_input:',
      'invalid_response:',
      'reply_outcome_unknown:',
      'review_not_found:',
      'service_unavailable:aborted',
      'service_unavailable:circuit_open',
      'service_unavailable:rate_limited',
      'service_unavailable:retries_exhausted',
      'service_unavailable:timeout',
      'unauthorized:',
    ]);
    // The credentials did travel, so their absence above means something.
    expect(sandbox.requests[0]?.headers['service-api-key']).toBe(API_KEY);
    expect(attempts.length).toBeGreaterThan(10);
    const reported = JSON.stringify(attempts);
    for (const secret of SECRETS) expect(reported).not.toContain(secret);
    // Let the sandbox finish the requests the client stopped waiting for: the last, a slow reply, is stored.
    await pollUntil(() => sandbox.repliesTo(VOTER_REVIEW).length > 0, 'the slow reply stored');
  });

  it('keeps the credentials out of the client object when it is logged or serialised', () => {
    const client = clientFor();
    for (const text of [JSON.stringify(client), inspect(client, { depth: 10, showHidden: true }), String(client)]) {
      expect(text).not.toContain(API_KEY);
      expect(text).not.toContain(APP_ID);
    }
  });
});
