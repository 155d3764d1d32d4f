/**
 * Resolves once `condition` holds, checked at once and then every `everyMs`: for state that sends no
 * event of its own (a row in the store, a count kept by a fake). Polling a read is waiting for the
 * state, not for a time; the deadline only turns "never" into a failure that says what was awaited.
 */
export async function pollUntil(
  condition: () => boolean | Promise<boolean>,
  what: string,
  { timeoutMs = 10_000, everyMs = 5 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    // The interval between reads of a state with no event; see above.
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
