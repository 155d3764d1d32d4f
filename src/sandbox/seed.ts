import seedFile from './seed.json' with { type: 'json' };
import type { SeedData } from './types.js';

// A JSON import (not fs) so tsc copies seed.json into dist/ and Jest resolves it from src/ alike.
export const bundledSeed: SeedData = seedFile;

/** The seed with every time shifted by (now - generatedAt); a seed without generatedAt is kept as is. */
export function rebaseSeed(seed: SeedData, now = Date.now()): SeedData {
  if (seed.generatedAt === undefined) return seed;
  const shiftMs = now - Date.parse(seed.generatedAt);
  const shift = (iso: string) => new Date(Date.parse(iso) + shiftMs).toISOString();
  return {
    ...seed,
    generatedAt: new Date(now).toISOString(),
    votes: seed.votes.map((vote) => ({ ...vote, expiresAt: shift(vote.expiresAt) })),
    reviews: seed.reviews.map((review) => ({ ...review, created_at: shift(review.created_at) })),
  };
}
