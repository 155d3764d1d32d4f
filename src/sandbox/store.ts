import type { SeedData, WireReview, WireVoteEntry } from './types.js';

export interface StoredReply {
  id: string;
  content: string;
  pinned: boolean;
}

const DISCORD_EPOCH = 1_420_070_400_000n;

/** The service's data: votes by user, reviews by author and by id, replies by review. */
export class SandboxStore {
  totalVotes = 0;
  monthlyVotes = 0;
  /** `runsFor`: a vote whose end is fixed by the first answer that tells of it (setVoteFromFirstRead). */
  private readonly votes = new Map<string, { expiresAt: number; discord: boolean; runsFor?: number }>();
  private readonly reviewsByAuthor = new Map<string, WireReview>();
  private readonly reviewsById = new Map<string, WireReview>();
  private readonly replies = new Map<string, StoredReply[]>();
  private lastReplyId = 0n;

  load(seed: SeedData): void {
    this.votes.clear();
    this.reviewsByAuthor.clear();
    this.reviewsById.clear();
    this.replies.clear();
    this.totalVotes = seed.totalVotes;
    this.monthlyVotes = seed.monthlyVotes;
    for (const vote of seed.votes) {
      this.votes.set(vote.userId, { expiresAt: Date.parse(vote.expiresAt), discord: vote.discord });
    }
    for (const review of seed.reviews) this.setReview(review);
  }

  /** Milliseconds left on the user's vote, or null when it is absent or has expired. */
  remainingMs(userId: string, now = Date.now()): number | null {
    const vote = this.votes.get(userId);
    if (vote) startClock(vote, now);
    return vote && vote.expiresAt > now ? vote.expiresAt - now : null;
  }

  activeVotes(now = Date.now()): WireVoteEntry[] {
    const entries: WireVoteEntry[] = [];
    for (const [userId, vote] of this.votes) {
      startClock(vote, now);
      if (vote.expiresAt <= now) continue;
      entries.push({ userId, remaining: vote.expiresAt - now, discord: vote.discord });
    }
    return entries.sort((a, b) => b.remaining - a.remaining);
  }

  /** A vote that was not active before counts as a new one in the totals. */
  setVote(userId: string, remainingMs: number | null, now = Date.now()): void {
    if (remainingMs === null) {
      this.votes.delete(userId);
      return;
    }
    if (this.remainingMs(userId, now) === null) {
      this.totalVotes += 1;
      this.monthlyVotes += 1;
    }
    const discord = this.votes.get(userId)?.discord ?? true;
    this.votes.set(userId, { expiresAt: now + remainingMs, discord });
  }

  /**
   * A vote that runs for `runsForMs` from the first answer that shows it (a vote check or the list),
   * not from now: a test can make a vote end a known time after a bot learns of it, however long
   * the bot took to get there. Counted as a new vote as setVote counts one.
   */
  setVoteFromFirstRead(userId: string, runsForMs: number, now = Date.now()): void {
    this.setVote(userId, runsForMs, now);
    this.votes.get(userId)!.runsFor = runsForMs;
  }

  reviewBy(authorId: string): WireReview | undefined {
    return this.reviewsByAuthor.get(authorId);
  }

  reviewById(reviewId: string): WireReview | undefined {
    return this.reviewsById.get(reviewId);
  }

  /** One review per author, as on the service: a new one replaces the author's previous review. */
  setReview(review: WireReview): void {
    this.deleteReview(review.authorId);
    const stored = { ...review };
    this.reviewsByAuthor.set(stored.authorId, stored);
    this.reviewsById.set(stored.id, stored);
  }

  deleteReview(authorId: string): void {
    const previous = this.reviewsByAuthor.get(authorId);
    if (!previous) return;
    this.reviewsByAuthor.delete(authorId);
    this.reviewsById.delete(previous.id);
  }

  addReply(review: WireReview, content: string, pinned: boolean): StoredReply {
    const reply = { id: this.nextReplyId(), content, pinned };
    const list = this.replies.get(review.id) ?? [];
    list.push(reply);
    this.replies.set(review.id, list);
    review.replies += 1;
    return reply;
  }

  repliesTo(reviewId: string): StoredReply[] {
    return (this.replies.get(reviewId) ?? []).map((reply) => ({ ...reply }));
  }

  // Spec gap: the reply id format is not shown; a Discord-style snowflake is the likeliest shape.
  // Taking the next integer when the clock has not moved keeps ids unique and increasing.
  private nextReplyId(): string {
    const fromClock = (BigInt(Date.now()) - DISCORD_EPOCH) << 22n;
    this.lastReplyId = fromClock > this.lastReplyId ? fromClock : this.lastReplyId + 1n;
    return this.lastReplyId.toString();
  }
}

/** Fixes the end of a vote that runs from its first read, at that read. */
function startClock(vote: { expiresAt: number; runsFor?: number }, now: number): void {
  if (vote.runsFor === undefined) return;
  vote.expiresAt = now + vote.runsFor;
  delete vote.runsFor;
}
