import { createServiceClient, type ServiceClient, type ServiceClientOptions } from '../../src/api/index.js';

/**
 * A client with timings of tens of milliseconds and no cache or breaker, so a test sees every
 * request it causes and runs fast. Tests switch on what they examine through `overrides`.
 */
export function fastClient(
  target: { baseUrl: string; apiKey: string; appId: string },
  overrides: Partial<ServiceClientOptions> = {},
): ServiceClient {
  return createServiceClient({
    baseUrl: target.baseUrl,
    apiKey: target.apiKey,
    appId: target.appId,
    // Far past any answer of the sandbox on a loaded machine: a test of timeouts sets its own (300 ms
    // timed an attempt out before the sandbox counted it, 2 requests for 3 failed calls).
    attemptTimeoutMs: 5_000,
    totalBudgetMs: 10_000,
    minRetryDelayMs: 10,
    maxRetryDelayMs: 40,
    cacheTtlMs: 0,
    breakerThreshold: 0,
    ...overrides,
  });
}

/** The rejection of a promise expected to fail; a resolution fails the test. */
export async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}
