import type { Translator } from '../i18n/index.js';
import type * as DrawStats from './draw-stats.js';
import type { StatsPicture } from './draw-stats.js';
import { shownStars, type StatsData } from './stats-data.js';

type Drawing = typeof DrawStats;
let drawing: Promise<Drawing> | undefined;

/**
 * The stats picture as PNG. chart.js, the canvas binary and the font load on the first call, so a
 * bot whose servers never ask for /stats never holds them; a failed load is tried again next time.
 */
export async function renderStats(data: StatsData, i18n: Translator): Promise<Buffer> {
  drawing ??= import('./draw-stats.js');
  let module: Drawing;
  try {
    module = await drawing;
  } catch (error) {
    drawing = undefined;
    throw error;
  }
  return module.drawStats(pictureOf(data, i18n));
}

/** The picture's texts in the server's language; 0 stars only when a review has it. */
export function pictureOf(data: StatsData, { t, dayName }: Translator): StatsPicture {
  const stars = shownStars(data);
  return {
    votesTitle: t('stats.chart.votesTitle'),
    votesAxis: t('stats.chart.votesAxis'),
    daysAxis: t('stats.chart.daysAxis'),
    dayLabels: data.days.map(dayName),
    votes: data.votes,
    ratingsTitle: t('stats.chart.ratingsTitle'),
    ratingsAxis: t('stats.chart.ratingsAxis'),
    ratingLabels: stars.map((count) => t('stats.chart.stars', { stars: count })),
    ratings: stars.map((count) => data.ratings[count] ?? 0),
  };
}
