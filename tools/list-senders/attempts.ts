/** One try of a delivery: its status, or what went wrong before one came, and how long it took. */
export interface ListAttempt {
  outcome: number | 'timeout' | 'network';
  ms: number;
}

/** How a site retries, as its documentation says (or one try where it says nothing). */
export interface RetryPolicy {
  /** Tries in all, the first included. */
  tries: number;
  /** The wait before try `next` (2 for the first retry), in ms at delayScale 1. */
  delayMs(next: number): number;
  /** Whether this outcome is tried again. */
  retries(outcome: ListAttempt['outcome']): boolean;
  /** How long the site waits for an answer. */
  timeoutMs: number;
}

export interface Request {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A timeout or a 5xx: what most lists retry. */
export const TIMEOUT_OR_5XX = (outcome: ListAttempt['outcome']) => typeof outcome !== 'number' || outcome >= 500;

export const ONE_TRY: RetryPolicy = { tries: 1, delayMs: () => 0, retries: () => false, timeoutMs: 10_000 };

/**
 * POSTs `request` (built afresh for every try, so a signature carries that try's time) and retries
 * as `policy` says; `delayScale` shrinks the waits for tests. Returns every try, the last one deciding.
 */
export async function sendWithRetries(
  build: () => Request,
  policy: RetryPolicy,
  delayScale = 1,
): Promise<ListAttempt[]> {
  const attempts: ListAttempt[] = [];
  for (let attempt = 1; ; attempt++) {
    const { url, headers, body } = build();
    const started = performance.now();
    let outcome: ListAttempt['outcome'];
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
        signal: AbortSignal.timeout(policy.timeoutMs),
      });
      await response.arrayBuffer();
      outcome = response.status;
    } catch (error) {
      outcome = (error as Error).name === 'TimeoutError' ? 'timeout' : 'network';
    }
    attempts.push({ outcome, ms: performance.now() - started });
    if (attempt >= policy.tries || !policy.retries(outcome)) return attempts;
    await new Promise((resolve) => setTimeout(resolve, policy.delayMs(attempt + 1) * delayScale));
  }
}
