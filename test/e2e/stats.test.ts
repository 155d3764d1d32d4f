import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { moderator, textOf } from '../../tools/conversation.js';
import {
  attachmentBytes,
  DEFAULTS,
  member,
  OptionType,
  slashCommand,
  type InteractionHandle,
  type MemberPayload,
} from '../../tools/discord-standin/index.js';
import { ROOT, temporaryDatabaseUrl } from '../../tools/bot-process.js';
import { pngSize } from '../support/png.js';
import { startWorld, type World } from '../../tools/world.js';
import { openStore } from '../../src/store/index.js';
import { DAY_MS } from '../../src/stats/stats-data.js';
import { PICTURE_HEIGHT, PICTURE_WIDTH } from '../../src/stats/draw-stats.js';

const HOUR = 3_600_000;
const today = () => {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
};
/** Votes seeded per day back from today (0 = today), a double counting as two; day 10 is outside a 7-day answer. */
const SEEDED: Array<{ daysAgo: number; double: boolean }> = [
  { daysAgo: 0, double: false },
  { daysAgo: 0, double: true },
  { daysAgo: 2, double: false },
  { daysAgo: 6, double: false },
  { daysAgo: 10, double: false },
];
const RATINGS = [5, 5, 4, 2];

let world: World;
beforeAll(async () => {
  const url = temporaryDatabaseUrl();
  const root = await openStore({ kind: 'sqlite', file: url.slice('file:'.length) });
  const store = root.forServer(DEFAULTS.guildId);
  for (const [index, { daysAgo, double }] of SEEDED.entries()) {
    const at = today() - daysAgo * DAY_MS + HOUR;
    const userId = `28410239014164${String(index).padStart(4, '0')}`;
    await store.acceptVote({ userId, at, double, source: 'webhook', periodEndsAt: at + HOUR });
  }
  for (const [index, rating] of RATINGS.entries())
    await store.queueReview({
      reviewId: `rev_stats_${index}`,
      authorId: '593031275438718986',
      rating,
      content: 'Seen',
      receivedAt: today(),
    });
  await root.close();
  world = await startWorld({ env: { DATABASE_URL: url } });
}, 30_000);
afterAll(async () => {
  await world?.close();
});

const stats = (who: MemberPayload, days?: number, guildLocale?: string): InteractionHandle =>
  world.discord.sendInteraction(
    slashCommand({
      name: 'stats',
      member: who,
      options: days === undefined ? [] : [{ name: 'days', type: OptionType.Integer, value: days }],
      guildLocale,
    }),
  );

describe('/stats', () => {
  it('answers within Discord’s deadline with a PNG of votes per day and ratings, and the same numbers as text', async () => {
    const handle = stats(moderator(), 7);
    const first = await handle.firstCallback(3_000);
    expect(first.type).toBe(5);
    expect(first.at - handle.sentAt).toBeLessThan(3_000);
    expect(first.data?.flags).toBe(64);
    const answer = await handle.waitForMessage(15_000);

    const [attachment] = answer.attachments;
    expect(attachment?.filename).toBe('stats.png');
    expect(attachment?.description).toMatch(/^Bar charts: 5 votes over the last 7 days, and 4 reviews by rating\./);
    const png = attachmentBytes(attachment);
    expect(png).toBeDefined();
    expect(pngSize(png!)).toEqual({ width: PICTURE_WIDTH, height: PICTURE_HEIGHT });
    expect(attachment?.size).toBe(png!.length);
    expect(answer.embeds[0]?.image?.url).toBe('attachment://stats.png');

    const embed = answer.embeds[0]!;
    expect(embed.title).toBe('Votes and reviews · last 7 days');
    const dayLines = (embed.description as string)
      .split('\n')
      .filter((line) => /^[A-Z][a-z]{2} \d{1,2}: \d+$/.test(line));
    // Oldest first, one line per day: 6 days ago 1, 2 days ago 1, today 1 + a double.
    expect(dayLines.map((line) => Number(line.split(': ')[1]))).toEqual([1, 0, 0, 0, 1, 0, 3]);
    expect(embed.description).toContain('5 votes in 7 days, 0.7 a day on average.');
    const ratings = embed.fields?.[0];
    expect(ratings?.name).toBe('Ratings of the reviews the bot has seen');
    expect(ratings?.value).toBe(
      ['5 ★: 2', '4 ★: 1', '3 ★: 0', '2 ★: 1', '1 ★: 0', '4 reviews, 4 stars on average.'].join('\n'),
    );
    expect(handle.rejectedCallbacks).toEqual([]);
  });

  it('draws 30 days without `days`, in the server’s language', async () => {
    const answer = await stats(moderator(), undefined, 'de').waitForMessage(15_000);
    expect(answer.embeds[0]?.title).toBe('Stimmen und Bewertungen · letzte 30 Tage');
    expect(textOf(answer)).toContain('6 Stimmen in 30 Tagen, im Schnitt 0,2 pro Tag.');
    expect(pngSize(attachmentBytes(answer.attachments[0])!).width).toBe(PICTURE_WIDTH);
  });

  it('refuses members who are not moderators, and a number of days it cannot draw, drawing nothing', async () => {
    const refused = stats(member(), 7);
    const notice = await refused.waitForMessage();
    expect(notice.embeds[0]?.title).toBe('Moderators only');
    expect(notice.attachments).toEqual([]);
    expect(refused.callbacks.map((callback) => callback.type)).toEqual([4]);

    const tooMany = await stats(moderator(), 91).waitForMessage();
    expect(tooMany.embeds[0]?.title).toBe('Number of days not understood');
    expect(textOf(tooMany)).toContain('from 1 to 90');
  });

  it('draws on a thread of its own: chart.js and the canvas binary never load on the main thread', () => {
    // A resolve hook (main thread only) prints every module of the drawing stack loaded there; then
    // /stats's command module is imported as the bot does at start, and a picture is drawn. The
    // process must then exit by itself: the drawing thread never holds it.
    const hook = `export async function resolve(s, c, next) { const r = await next(s, c); if (/chart\\.js|@napi-rs/.test(r.url)) console.log('drawing module loaded'); return r; }`;
    const script = `
      import { register } from 'node:module';
      register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));
      await import('${ROOT}dist/commands/stats.js');
      console.log('command loaded');
      const { renderStats } = await import('${ROOT}dist/src/stats/render-stats.js');
      const { english } = await import('${ROOT}dist/src/i18n/index.js');
      const png = await renderStats({ days: [0], votes: [1], ratings: [0, 0, 0, 0, 0, 1], reviews: 1, averageRating: 5 }, english);
      console.log('picture drawn ' + png.subarray(1, 4).toString('latin1'));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    const lines = out.trim().split('\n');
    expect(lines).toEqual(['command loaded', 'picture drawn PNG']);
  });
});
