// Loaded only through render-stats.ts's dynamic import: chart.js and the canvas binary stay out of
// the memory of a bot nobody asks for /stats.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  Title,
  type ChartConfiguration,
  type ChartItem,
} from 'chart.js';
import { ToneColour } from '../views/theme.js';

export const PICTURE_WIDTH = 1000;
export const PICTURE_HEIGHT = 480;
const VOTES_WIDTH = 620;
const FONT_FAMILY = 'Vote Bot Sans';
const FONT_FILE = 'assets/fonts/DejaVuSans.ttf';
const TEXT_COLOUR = '#313338';
const RATING_COLOUR = '#f0b232';
/** A list's colour in the stack, after Guilds' (the colour of the one series): far apart, and none the ratings'. */
const LIST_COLOURS = ['#3ba55c', '#eb459e', '#9b59b6', '#e67e22', '#1abc9c', '#95a5a6'];

/** What the picture shows, its texts already in the server's language. */
export interface StatsPicture {
  votesTitle: string;
  votesAxis: string;
  daysAxis: string;
  dayLabels: string[];
  votes: number[];
  /** The votes split by list, stacked with a legend naming each; `votes` as one series when absent. */
  votesBySite?: Array<{ label: string; votes: number[] }>;
  ratingsTitle: string;
  ratingsAxis: string;
  ratingLabels: string[];
  ratings: number[];
}

Chart.register(BarController, BarElement, CategoryScale, Legend, LinearScale, Title);
// The shipped font, not whatever the host has: the picture reads the same on every machine.
if (!GlobalFonts.registerFromPath(projectFile(FONT_FILE), FONT_FAMILY)) {
  throw new Error(`the font ${FONT_FILE} could not be loaded`);
}
Chart.defaults.font.family = FONT_FAMILY;
Chart.defaults.color = TEXT_COLOUR;

/** Both bar charts side by side on a white ground (it reads on Discord's light and dark themes), as PNG. */
export async function drawStats(picture: StatsPicture): Promise<Buffer> {
  const canvas = createCanvas(PICTURE_WIDTH, PICTURE_HEIGHT);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, PICTURE_WIDTH, PICTURE_HEIGHT);
  const votesTexts = { title: picture.votesTitle, x: picture.daysAxis, y: picture.votesAxis };
  const votes = picture.votesBySite
    ? stackedBars(picture.dayLabels, picture.votesBySite, votesTexts)
    : bars(picture.dayLabels, picture.votes, GUILDS_COLOUR, votesTexts);
  drawChart(context, 0, VOTES_WIDTH, votes);
  const ratings = bars(picture.ratingLabels, picture.ratings, RATING_COLOUR, {
    title: picture.ratingsTitle,
    x: '',
    y: picture.ratingsAxis,
  });
  drawChart(context, VOTES_WIDTH, PICTURE_WIDTH - VOTES_WIDTH, ratings);
  // Encoding runs on libuv's thread pool, not on the event loop the bot answers members from. Not
  // encodeSync: it kept memory per picture (docs/performance.md, "Figures behind the code").
  return canvas.encode('png');
}

/** Draws one chart on a canvas of its own and copies it in at `left`: chart.js takes a whole canvas. */
function drawChart(into: SKRSContext2D, left: number, width: number, config: ChartConfiguration<'bar'>): void {
  const canvas = createCanvas(width, PICTURE_HEIGHT);
  // chart.js takes any object with getContext('2d') once no DOM is around; its types name only the DOM's.
  const chart = new Chart(canvas as unknown as ChartItem, config);
  into.drawImage(canvas, left, 0);
  // destroy() clears the canvas, so only after the copy; it also lets chart.js forget the chart.
  chart.destroy();
}

const GUILDS_COLOUR = `#${ToneColour.info.toString(16)}`;

/** One bar a day, each list's votes stacked on the others' (Guilds first, at the bottom), with a legend. */
function stackedBars(
  labels: string[],
  series: NonNullable<StatsPicture['votesBySite']>,
  texts: { title: string; x: string; y: string },
): ChartConfiguration<'bar'> {
  const config = bars(labels, [], GUILDS_COLOUR, texts);
  let next = 0;
  config.data.datasets = series.map(({ label, votes }) => ({
    label,
    data: votes,
    backgroundColor: label === 'Guilds' ? GUILDS_COLOUR : LIST_COLOURS[next++ % LIST_COLOURS.length]!,
  }));
  config.options!.plugins!.legend = { display: true, position: 'bottom' };
  config.options!.scales!.x = { ...config.options!.scales!.x, stacked: true };
  config.options!.scales!.y = { ...config.options!.scales!.y, stacked: true };
  return config;
}

function bars(
  labels: string[],
  data: number[],
  colour: string,
  texts: { title: string; x: string; y: string },
): ChartConfiguration<'bar'> {
  return {
    type: 'bar',
    data: { labels, datasets: [{ data, backgroundColor: colour }] },
    options: {
      responsive: false,
      animation: false,
      devicePixelRatio: 1,
      layout: { padding: 16 },
      plugins: { title: { display: true, text: texts.title, font: { size: 18 } }, legend: { display: false } },
      scales: {
        x: { title: { display: texts.x !== '', text: texts.x }, grid: { display: false } },
        y: { beginAtZero: true, ticks: { precision: 0 }, title: { display: true, text: texts.y } },
      },
    },
  };
}

/** A file of the project, from src/ under ts-jest or dist/src/ once built: the nearest folder with package.json. */
function projectFile(relative: string): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  return path.join(dir, relative);
}
