import type { StatsStore } from '../store/index.js';
import { filledStars } from '../views/format.js';

export const DAY_MS = 86_400_000;
/** `/stats` without `days`: a month's worth of days. */
export const STATS_DEFAULT_DAYS = 30;
/** Past a quarter the day bars get too thin to tell apart (620 px for them all) and the text list long. */
export const STATS_MAX_DAYS = 90;

/** What /stats shows, in the picture and as text: the same numbers for both. */
export interface StatsData {
  /** The start of each UTC day shown, oldest first; `votes` has one count per day. */
  days: number[];
  votes: number[];
  /** Reviews at 0 to 5 stars (index = stars), rounded as the feed draws them. */
  ratings: number[];
  reviews: number;
  /** The mean of the ratings as delivered; null without a review. */
  averageRating: number | null;
}

export type StatsSource = StatsStore;

/** The last `days` UTC days up to and including today, and every review the bot has seen. */
export async function readStats(source: StatsSource, now: Date, days: number): Promise<StatsData> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const from = today - (days - 1) * DAY_MS;
  const [votes, counts] = await Promise.all([source.votesPerDay(from, days), source.ratingCounts()]);
  const ratings = [0, 0, 0, 0, 0, 0];
  let reviews = 0;
  let sum = 0;
  for (const { rating, reviews: count } of counts) {
    ratings[filledStars(rating)]! += count;
    reviews += count;
    sum += rating * count;
  }
  return {
    days: Array.from({ length: days }, (_, i) => from + i * DAY_MS),
    votes,
    ratings,
    reviews,
    averageRating: reviews === 0 ? null : sum / reviews,
  };
}

/** 1 to 5 stars always, highest first as review sites list them; 0 only when some review has it. */
export function shownStars(data: StatsData): number[] {
  return (data.ratings[0] ?? 0) > 0 ? [5, 4, 3, 2, 1, 0] : [5, 4, 3, 2, 1];
}
