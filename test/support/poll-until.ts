/** Taken at load, before any test fakes them: the polling runs on real time, as the I/O it waits on does. */
const realSetTimeout = globalThis.setTimeout;
const realNow = performance.now.bind(performance);

/**
 * Resolves once `condition` holds, checked at once and then every `everyMs`: for state that sends no
 * event of its own (a row in the store, a count kept by a fake). Polling a read is waiting for the
 * state, not for a time; the deadline only turns "never" into a failure that says what was awaited.
 * It keeps working under jest's fake timers.
 */
export async function pollUntil(
  condition: () => boolean | Promise<boolean>,
  what: string,
  { timeoutMs = 10_000, everyMs = 5 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<void> {
  const deadline = realNow() + timeoutMs;
  while (!(await condition())) {
    if (realNow() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    // The interval between reads of a state with no event; see above.
    await new Promise((resolve) => realSetTimeout(resolve, everyMs));
  }
}

/**
 * Reads `read` until `ready` holds of what it returned, and resolves with that value (pollUntil for
 * a value rather than a yes or no). For state
 * another process keeps and announces by no event (a page it serves, a gauge it reports): a read
 * every `intervalMs` (25 by default, so a change is seen at most that late), for at most
 * `timeoutMs` (10 s by default, generous: on a busy machine the state comes late, never not at all).
 */
export async function readUntil<T>(
  read: () => Promise<T>,
  ready: (value: T) => boolean,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 25, what = 'the state' } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ready(value)) return value;
    if (Date.now() >= deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last read: ${describe(value)}`);
    // The poll's interval: no event says the state changed, so it is read again this soon.
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

function describe(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
