/**
 * Reads `read` until `ready` holds of what it returned, and resolves with that value. For state
 * another process keeps and announces by no event (a page it serves, a gauge it reports): a read
 * every `intervalMs` (25 by default, so a change is seen at most that late), for at most
 * `timeoutMs` (10 s by default, generous: on a busy machine the state comes late, never not at all).
 */
export async function pollUntil<T>(
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
