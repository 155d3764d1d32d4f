import type { Translator } from '../i18n/index.js';
import type * as DrawStats from './draw-stats.js';
import type { StatsPicture } from './draw-stats.js';
import { shownStars, type StatsData } from './stats-data.js';
import { StatsRenderer } from './stats-renderer.js';
import { Limiter } from '../work/limiter.js';

/**
 * Pictures drawn at once in a process (the bot runs on 2 cores). Each holds its canvases and PNG
 * buffers while it is drawn: 50 /stats at once raised the bot's RSS from 95 to 416 MB. Those past
 * it wait their turn; /stats defers its reply first, so a waiting member sees "thinking…".
 */
export const STATS_DRAWN_AT_ONCE = 2;

type Drawing = typeof DrawStats;
let drawing: Promise<Drawing> | undefined;
let renderer: StatsRenderer | undefined;
const turns = new Limiter(STATS_DRAWN_AT_ONCE);

/** Pictures being drawn now and waiting for a turn. */
export function statsDrawing(): { active: number; waiting: number } {
  return { active: turns.active, waiting: turns.waiting };
}

/**
 * The stats picture as PNG, drawn on the stats thread (a picture held the event loop 50-200 ms, and
 * every interaction meanwhile). `inProcess` draws on this thread instead (tests running the sources).
 * chart.js, the canvas binary and the font load on the first picture only, so a bot whose servers
 * never ask for /stats never holds them; a failed load is tried again next time.
 */
export async function renderStats(data: StatsData, i18n: Translator, { inProcess = false } = {}): Promise<Buffer> {
  const picture = pictureOf(data, i18n);
  return turns.run(() => (inProcess ? drawHere(picture) : (renderer ??= new StatsRenderer()).draw(picture)));
}

async function drawHere(picture: StatsPicture): Promise<Buffer> {
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
