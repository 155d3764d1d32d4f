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
