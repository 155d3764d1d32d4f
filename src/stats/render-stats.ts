import type { Translator } from '../i18n/index.js';
import type * as DrawStats from './draw-stats.js';
import type { StatsPicture } from './draw-stats.js';
import { shownStars, type StatsData } from './stats-data.js';
import { StatsRenderer } from './stats-renderer.js';

type Drawing = typeof DrawStats;
let drawing: Promise<Drawing> | undefined;
let renderer: StatsRenderer | undefined;

/**
 * The stats picture as PNG, drawn on the stats thread (a picture held the event loop 50-200 ms, and
 * every interaction meanwhile). `inProcess` draws on this thread instead (tests running the sources).
 * chart.js, the canvas binary and the font load on the first picture only, so a bot whose servers
 * never ask for /stats never holds them; a failed load is tried again next time.
 */
export async function renderStats(data: StatsData, i18n: Translator, { inProcess = false } = {}): Promise<Buffer> {
  const picture = pictureOf(data, i18n);
  if (!inProcess) return (renderer ??= new StatsRenderer()).draw(picture);
  drawing ??= import('./draw-stats.js');
  let module: Drawing;
  try {
    module = await drawing;
  } catch (error) {
    drawing = undefined;
    throw error;
  }
  return module.drawStats(picture);
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
    ...(data.bySite ? { votesBySite: data.bySite.map(({ name, votes }) => ({ label: name, votes })) } : {}),
    ratingsTitle: t('stats.chart.ratingsTitle'),
    ratingsAxis: t('stats.chart.ratingsAxis'),
    ratingLabels: stars.map((count) => t('stats.chart.stars', { stars: count })),
    ratings: stars.map((count) => data.ratings[count] ?? 0),
  };
}
