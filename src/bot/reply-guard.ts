type Entry = { state: 'pending' } | { state: 'posted'; replyId: string; at: number };

export type Claim = { ok: true } | { ok: false; state: 'pending' } | { ok: false; state: 'posted'; replyId: string };

/**
 * Remembers replies being posted and just posted, keyed by review and text, so the same form sent
 * twice (a double click, a retried submit, two moderators answering alike) posts once.
 */
export class ReplyGuard {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly keepMs = 10 * 60_000,
    private readonly maxEntries = 1_000,
    private readonly clock: () => number = Date.now,
  ) {}

  claim(reviewId: string, content: string): Claim {
    const key = keyOf(reviewId, content);
    const entry = this.entries.get(key);
    if (entry?.state === 'pending') return { ok: false, state: 'pending' };
    if (entry?.state === 'posted' && this.clock() - entry.at < this.keepMs) {
      return { ok: false, state: 'posted', replyId: entry.replyId };
    }
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.dropOldest();
    this.entries.set(key, { state: 'pending' });
    return { ok: true };
  }

  posted(reviewId: string, content: string, replyId: string): void {
    this.entries.set(keyOf(reviewId, content), { state: 'posted', replyId, at: this.clock() });
  }

  /** After a failure the moderator decides whether to send again, so the claim is let go. */
  release(reviewId: string, content: string): void {
    this.entries.delete(keyOf(reviewId, content));
  }

  private dropOldest(): void {
    const oldest = this.entries.keys().next();
    if (!oldest.done) this.entries.delete(oldest.value);
  }
}

function keyOf(reviewId: string, content: string): string {
  return `${reviewId}\n${content}`;
}
