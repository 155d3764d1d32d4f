import { STATUS_CODES } from 'node:http';
import type { RouteName } from '../api/types.js';
import type { Fault } from './types.js';
import type { Answer } from './answer.js';
import { jsonAnswer, UNAUTHORISED } from './answer.js';

/** A truncated object: what a proxy cutting the connection mid-body leaves behind. */
const MALFORMED_BODY = '{"voted": true, "remaining": 36';

/** Faults by route; '*' is the fallback for every route, unknown paths included. */
export class FaultTable {
  private readonly faults = new Map<RouteName | '*', { fault: Fault; left: number }>();

  set(route: RouteName | '*', fault: Fault): void {
    this.faults.set(route, { fault: { ...fault }, left: fault.times ?? Infinity });
  }

  clear(): void {
    this.faults.clear();
  }

  /** The fault that applies to this request, counting it against `times`. */
  take(route: RouteName | 'unknown'): Fault | undefined {
    const key = route !== 'unknown' && this.faults.has(route) ? route : '*';
    const entry = this.faults.get(key);
    if (!entry) return undefined;
    entry.left -= 1;
    if (entry.left <= 0) this.faults.delete(key);
    return entry.left < 0 ? undefined : entry.fault;
  }
}

/** What a fault answers in place of the service, or undefined when the service should answer. */
export function faultAnswer(fault: Fault): Answer | undefined {
  if (fault.status !== undefined) {
    const headers: Record<string, string> = {};
    if (fault.retryAfter !== undefined) headers['Retry-After'] = fault.retryAfter;
    if (fault.body !== undefined) return { status: fault.status, body: fault.body, headers };
    if (fault.status === 401) return { ...UNAUTHORISED, headers };
    return { ...jsonAnswer(fault.status, { error: STATUS_CODES[fault.status] ?? 'Error' }), headers };
  }
  if (fault.malformed) return { status: 200, body: MALFORMED_BODY };
  return undefined;
}
