/**
 * Milliseconds a `Retry-After` header asks to wait: delta-seconds (fractions tolerated) or an
 * HTTP-date. Undefined when absent or unreadable, so the normal backoff applies.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // A bare number that is not a valid delta (e.g. "-1") must not be read as a date.
  if (/^[-+]?\d/.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
