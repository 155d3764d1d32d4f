import type { VoteEntry } from './types.js';

/** Soonest to run out first; votes with no known time left go last. Ties by user id, for stable pages. */
function compareByTimeLeft(a: VoteEntry, b: VoteEntry): number {
  const left = (a.remainingMs ?? Number.POSITIVE_INFINITY) - (b.remainingMs ?? Number.POSITIVE_INFINITY);
  if (left !== 0 && !Number.isNaN(left)) return left;
  return a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0;
}

/** A sorted copy. */
export function orderByTimeLeft(votes: readonly VoteEntry[]): VoteEntry[] {
  return [...votes].sort(compareByTimeLeft);
}

/** One pass, no copy: lets a page be cut from a list ordered once, when it was fetched. */
export function isOrderedByTimeLeft(votes: readonly VoteEntry[]): boolean {
  for (let i = 1; i < votes.length; i++) if (compareByTimeLeft(votes[i - 1]!, votes[i]!) > 0) return false;
  return true;
}
