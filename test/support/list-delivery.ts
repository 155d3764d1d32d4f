import type { Delivery, ReadContext } from '../../src/lists/index.js';

export const GUILD = '160105994217586689';
export const MEMBER = '221221226561929217';
/** Arrival time in the tests: 2026-02-09T00:47:44Z, 30 s after the documented Top.gg example vote. */
export const NOW = Date.parse('2026-02-09T00:47:44Z');
export const AT_NOW: ReadContext = { now: NOW };

/** A delivery of `body` (a JSON value, or raw text as is) with `headers`. */
export function delivery(body: unknown, headers: Record<string, string> = {}, pathSecret?: string): Delivery {
  const rawBody = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  return pathSecret === undefined ? { headers, rawBody } : { headers, rawBody, pathSecret };
}

export const raw = (body: unknown): Buffer => Buffer.from(JSON.stringify(body));
