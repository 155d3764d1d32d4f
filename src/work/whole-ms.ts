/**
 * An epoch ms as whole ms since an origin near it. V8 keeps a whole number within ±2^31 in place in a
 * Map or array and any other number in a box of its own (16 B more); epoch ms are ~1.8e12. A process
 * keeps a vote end for each voter of every server it polls. Ends are whole ms (the service's remaining
 * time is whole); one more than ±24 days from its origin is boxed again, still exact.
 */
export function msSince(origin: number, ms: number): number {
  return Math.round(ms) - origin;
}
