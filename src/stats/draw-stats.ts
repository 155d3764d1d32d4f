// Loaded only through render-stats.ts's dynamic import: chart.js and the canvas binary stay out of
// the memory of a bot nobody asks for /stats.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, GlobalFonts, type Canvas } from '@napi-rs/canvas';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
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

/** What the picture shows, its texts already in the server's language. */
export interface StatsPicture {
  votesTitle: string;
  votesAxis: string;
  daysAxis: string;
  dayLabels: string[];
  votes: number[];
  ratingsTitle: string;
  ratingsAxis: string;
  ratingLabels: string[];
  ratings: number[];
}

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Title);
// The shipped font, not whatever the host has: the picture reads the same on every machine.
if (!GlobalFonts.registerFromPath(projectFile(FONT_FILE), FONT_FAMILY)) {
  throw new Error(`the font ${FONT_FILE} could not be loaded`);
}
Chart.defaults.font.family = FONT_FAMILY;
Chart.defaults.color = TEXT_COLOUR;

/** Both bar charts side by side on a white ground (it reads on Discord's light and dark themes), as PNG. */
export async function drawStats(picture: StatsPicture): Promise<Buffer> {
  const votes = drawChart(
    VOTES_WIDTH,
    bars(picture.dayLabels, picture.votes, `#${ToneColour.info.toString(16)}`, {
      title: picture.votesTitle,
      x: picture.daysAxis,
      y: picture.votesAxis,
    }),
  );
  const ratings = drawChart(
    PICTURE_WIDTH - VOTES_WIDTH,
    bars(picture.ratingLabels, picture.ratings, RATING_COLOUR, {
      title: picture.ratingsTitle,
      x: '',
      y: picture.ratingsAxis,
    }),
  );
  const canvas = createCanvas(PICTURE_WIDTH, PICTURE_HEIGHT);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, PICTURE_WIDTH, PICTURE_HEIGHT);
  context.drawImage(votes, 0, 0);
  context.drawImage(ratings, VOTES_WIDTH, 0);
  // Encoding runs on libuv's thread pool, not on the event loop the bot answers members from.
  return canvas.encode('png');
}

function drawChart(width: number, config: ChartConfiguration<'bar'>): Canvas {
  const canvas = createCanvas(width, PICTURE_HEIGHT);
  // chart.js takes any object with getContext('2d') once no DOM is around; its types name only the DOM's.
  const chart = new Chart(canvas as unknown as ChartItem, config);
  // destroy() clears the canvas: the drawing is copied out first by keeping the canvas, not the chart.
  const copy = createCanvas(width, PICTURE_HEIGHT);
  copy.getContext('2d').drawImage(canvas, 0, 0);
  chart.destroy();
  return copy;
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
      plugins: { title: { display: true, text: texts.title, font: { size: 18 } } },
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
