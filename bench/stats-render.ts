// A process of its own for the stats scenario: its RSS is the renderer's, not the bench's stand-in.
// Prints one JSON line: { loadMs, rssBeforeMb, rssAfterFirstMb, rssWarmMb, rssAfterMb, times } for STATS_RENDER.count renders,
// then { burst: { beforeMb, peakMb, afterMb, laterMb } } for STATS_RENDER.burst pictures asked for at once.
import { translatorFor } from '../src/i18n/index.js';
import { renderStats } from '../src/stats/render-stats.js';
import { readStats, STATS_DEFAULT_DAYS } from '../src/stats/stats-data.js';
import { STATS_RENDER } from './scenarios/stats.js';

const mb = () => process.memoryUsage().rss / 2 ** 20;
const days = STATS_DEFAULT_DAYS;
const source = (round: number) => ({
  // Different numbers each time, as servers' would be: no render is a copy of the last.
  votesPerDay: async () => Array.from({ length: days }, (_, i) => ((i + round) * 7) % 23),
  ratingCounts: async () => [
    { rating: 5, reviews: 40 + (round % 9) },
    { rating: 4, reviews: 12 },
    { rating: 1, reviews: 3 },
  ],
});
const languages = ['en-US', 'de', 'fr', 'es-ES', 'pt-BR'];

const rssBeforeMb = mb();
let started = performance.now();
await renderStats(await readStats(source(0), new Date(), days), translatorFor('en-US'));
const loadMs = performance.now() - started;
const rssAfterFirstMb = mb();
const times: number[] = [];
let rssWarmMb = Number.NaN;
for (let round = 1; round <= STATS_RENDER.count; round++) {
  const stats = await readStats(source(round), new Date(), days);
  started = performance.now();
  await renderStats(stats, translatorFor(languages[round % languages.length]));
  times.push(performance.now() - started);
  if (round === STATS_RENDER.warm) rssWarmMb = mb();
}
const rssAfterMb = mb();

// As many /stats at once as moderators of many servers could send: RSS before, at its highest,
// right after and once the drawing thread has been idle long enough to end (is memory given back?).
const beforeMb = mb();
let peakMb = beforeMb;
const sampler = setInterval(() => (peakMb = Math.max(peakMb, mb())), 20);
await Promise.all(
  Array.from({ length: STATS_RENDER.burst }, async (_, i) =>
    renderStats(await readStats(source(i), new Date(), days), translatorFor(languages[i % languages.length])),
  ),
);
clearInterval(sampler);
const afterMb = mb();
peakMb = Math.max(peakMb, afterMb);
await new Promise((resolve) => setTimeout(resolve, STATS_RENDER.burstLaterMs));
const burst = { beforeMb, peakMb, afterMb, laterMb: mb() };
console.log(JSON.stringify({ loadMs, rssBeforeMb, rssAfterFirstMb, rssWarmMb, rssAfterMb, times, burst }));
