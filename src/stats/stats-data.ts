import { SITE_FACTS, SITE_IDS } from '../lists/index.js';
import { GUILDS_SITE, type SiteBreakdownStore, type StatsStore } from '../store/index.js';
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
  /**
   * The votes of each list, Guilds first, to stack; absent when every vote shown is Guilds' (a
   * server only on Guilds gets the picture it always had).
   */
  bySite?: SiteVotes[];
}

/** One list's votes on each day shown. */
interface SiteVotes {
  /** The site's own name, as is in every language. */
  name: string;
  votes: number[];
}

/** The counts; without the split by list, every vote is drawn as one series. */
export type StatsSource = StatsStore & Partial<Pick<SiteBreakdownStore, 'votesPerDayBySite'>>;

/** The last `days` UTC days up to and including today, and every review the bot has seen. */
export async function readStats(source: StatsSource, now: Date, days: number): Promise<StatsData> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const from = today - (days - 1) * DAY_MS;
  const [votes, counts, perSite] = await Promise.all([
    source.votesPerDay(from, days),
    source.ratingCounts(),
    source.votesPerDayBySite?.(from, days),
  ]);
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
    ...(perSite && Object.keys(perSite).some((site) => site !== GUILDS_SITE) ? { bySite: stacks(perSite) } : {}),
  };
}

/** The lists with votes, in the order of SITE_IDS (a list the bot no longer knows goes last, by its id). */
function stacks(perSite: Readonly<Record<string, number[]>>): SiteVotes[] {
  const known: readonly string[] = SITE_IDS;
  const order = (site: string) => (known.includes(site) ? known.indexOf(site) : known.length);
  return Object.keys(perSite)
    .sort((a, b) => order(a) - order(b) || (a < b ? -1 : 1))
    .map((site) => ({
      name: known.includes(site) ? SITE_FACTS[site as keyof typeof SITE_FACTS].name : site,
      votes: perSite[site]!,
    }));
}

/** 1 to 5 stars always, highest first as review sites list them; 0 only when some review has it. */
export function shownStars(data: StatsData): number[] {
  return (data.ratings[0] ?? 0) > 0 ? [5, 4, 3, 2, 1, 0] : [5, 4, 3, 2, 1];
}
