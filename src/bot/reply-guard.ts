import { BoundedMap } from '../core/bounded-map.js';

type Entry = { state: 'pending' } | { state: 'posted'; replyId: string };

export type Claim = { ok: true } | { ok: false; state: 'pending' } | { ok: false; state: 'posted'; replyId: string };

const PENDING: Entry = { state: 'pending' };

/**
 * Remembers replies being posted and just posted, keyed by review and text, so the same form sent
 * twice (a double click, a retried submit, two moderators answering alike) posts once. A claim is
 * held until it is posted or released; a posted reply is kept `keepMs`. Bounded: past `maxEntries`
 * the claim made longest ago goes.
 */
export class ReplyGuard {
  private readonly entries: BoundedMap<string, Entry>;

  constructor(
    private readonly keepMs = 10 * 60_000,
    maxEntries = 1_000,
    clock: () => number = Date.now,
  ) {
    this.entries = new BoundedMap({ max: maxEntries, now: clock });
  }

  claim(reviewId: string, content: string): Claim {
    const key = keyOf(reviewId, content);
    const entry = this.entries.get(key);
    if (entry?.state === 'pending') return { ok: false, state: 'pending' };
    if (entry?.state === 'posted') return { ok: false, state: 'posted', replyId: entry.replyId };
    this.entries.set(key, PENDING);
    return { ok: true };
  }

  /** The claim becomes its reply where it stands, so it keeps its place in the order. */
  posted(reviewId: string, content: string, replyId: string): void {
    this.entries.update(keyOf(reviewId, content), { state: 'posted', replyId }, this.keepMs);
  }

  /** After a failure the moderator decides whether to send again, so the claim is let go. */
  release(reviewId: string, content: string): void {
    this.entries.delete(keyOf(reviewId, content));
  }
}

function keyOf(reviewId: string, content: string): string {
  return `${reviewId}\n${content}`;
}
