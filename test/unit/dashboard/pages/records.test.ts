import { listName } from '../../../../src/lists/index.js';
import { deliveryFixes } from '../../../../src/setup/delivery-fixes.js';
import { describe, expect, it } from '@jest/globals';
import { deliveriesPage } from '../../../../src/dashboard/pages/deliveries.js';
import { REPLY_FIELDS, reviewsPage } from '../../../../src/dashboard/pages/reviews.js';
import { statsPage } from '../../../../src/dashboard/pages/stats.js';
import { translatorFor } from '../../../../src/i18n/index.js';
import { DAY_MS, type StatsData } from '../../../../src/stats/stats-data.js';
import type { DeliveryRecord } from '../../../../src/store/index.js';
import { expectEveryFormGuarded, flat, formsOf, HOSTILE, HOSTILE_ESCAPED } from '../../../support/html-forms.js';

const GUILD = '100000000000000004';
const CSRF = 'csrf-token-abc';
const i18n = translatorFor('en-US');
const AT = Date.UTC(2026, 10, 24, 18, 5);

describe('the review inbox', () => {
  const page = flat(
    reviewsPage({
      guildId: GUILD,
      csrf: CSRF,
      i18n,
      reviews: [
        {
          reviewId: 'rev_1',
          authorId: '301',
          authorName: `Eve ${HOSTILE}`,
          rating: 2,
          text: `Bad bot ${HOSTILE}`,
          at: AT,
        },
        {
          reviewId: 'topgg:9',
          authorId: '302',
          authorName: undefined,
          rating: 5,
          text: 'Great',
          at: AT,
          site: 'Top.gg',
        },
      ],
    }).text,
  );

  it("shows each review's author, stars, text and when, with every text of it escaped", () => {
    expect(page).toContain(`<h2>Eve ${HOSTILE_ESCAPED}</h2>`);
    expect(page).toContain(`<blockquote>Bad bot ${HOSTILE_ESCAPED}</blockquote>`);
    expect(page).toContain('★★☆☆☆ 2/5');
    expect(page).toContain('<time datetime="2026-11-24T18:05:00.000Z">');
    // Not a member (left, or never was): said so, with the id to look them up by.
    expect(page).toContain('<h2>not in the server now (id 302)</h2>');
    expect(page).not.toContain(HOSTILE);
  });

  it('offers a reply form with the reply and pinned fields for a Guilds review, and sends another list to its site', () => {
    const [form, ...others] = formsOf(page);
    expect(others).toHaveLength(0);
    expect(form!.body).toContain(`name="${REPLY_FIELDS.review}" value="rev_1"`);
    expect(form!.body).toMatch(
      new RegExp(`<textarea id="reply-rev_1" name="${REPLY_FIELDS.reply}"[^>]* required></textarea>`),
    );
    expect(form!.body).toContain(`type="checkbox" name="${REPLY_FIELDS.pinned}" value="on"`);
    expect(page).toContain('From Top.gg: answer it on that site.');
  });

  it('puts the CSRF token in the reply form, posting to the inbox', () => {
    expect(expectEveryFormGuarded(page, GUILD, CSRF)).toBe(1);
    expect(formsOf(page)[0]!.tag).toContain(`action="/servers/${GUILD}/reviews"`);
  });

  it('counts the waiting reviews, pages past the first twenty, and shows a review without a rating as such', () => {
    const one = { reviewId: 'rev_2', authorId: '303', authorName: 'Ann', rating: null, text: 'Hm', at: AT };
    const second = flat(reviewsPage({ guildId: GUILD, csrf: CSRF, i18n, reviews: [one], total: 45, page: 2 }).text);
    expect(second).toContain('45 reviews waiting for an answer, oldest first.');
    expect(second).toContain('no rating');
    expect(second).toContain('<a href="?page=1">Previous</a>');
    expect(second).toContain('Page 2 of 3');
    expect(second).toContain('<a href="?page=3">Next</a>');
    expect(flat(reviewsPage({ guildId: GUILD, csrf: CSRF, i18n, reviews: [one] }).text)).not.toContain('Page 1');
  });

  it('says so when no review waits', () => {
    expect(reviewsPage({ guildId: GUILD, csrf: CSRF, i18n, reviews: [] }).text).toContain(
      'No review waits for a reply.',
    );
  });
});

describe('the delivery log', () => {
  const lines: DeliveryRecord[] = [
    { guildId: GUILD, at: AT, event: 'vote', outcome: 'stored' },
    { guildId: GUILD, at: AT - 60_000, event: '?', outcome: 'malformed' },
    { guildId: GUILD, at: AT - 120_000, event: HOSTILE, outcome: 'wrong_token' },
  ];
  const fixesOf = (shown: readonly DeliveryRecord[], environmentSites = new Set<string>()) =>
    deliveryFixes(shown, i18n, 'the Credentials page', environmentSites);
  const page = flat(deliveriesPage({ lines, fixes: fixesOf(lines), listName, i18n }).text);

  it('shows the lines /setup status shows, as table rows with their mark, time, event and outcome', () => {
    expect(page.match(/<tr class="(good|bad)">/g)).toEqual([
      '<tr class="good">',
      '<tr class="bad">',
      '<tr class="bad">',
    ]);
    expect(page).toContain('<td>✔</td> <td><time datetime="2026-11-24T18:05:00.000Z">');
    expect(page).toContain('<td><code>vote</code></td> <td>stored</td>');
    expect(page).toContain('<td>unknown event</td> <td>refused: malformed body</td>');
  });

  it('escapes an event name and says how to fix a wrong token', () => {
    expect(page).toContain(`<code>${HOSTILE_ESCAPED}</code>`);
    expect(page).not.toContain(HOSTILE);
    expect(page).toContain('a wrong token: run the Credentials page');
  });

  it('says when the log is empty or cannot be read', () => {
    expect(deliveriesPage({ lines: [], fixes: [], listName, i18n }).text).toContain('none recorded yet');
    expect(deliveriesPage({ lines: 'unreadable', fixes: [], listName, i18n }).text).toContain('could not be read now');
  });

  it("calls a list's signature that does not match its secret so, not a wrong token, with the fix where the secret is set", () => {
    const refused: DeliveryRecord[] = [
      { guildId: GUILD, at: AT, event: 'topgg ?', outcome: 'wrong_secret' },
      { guildId: GUILD, at: AT - 1_000, event: 'discordplace ?', outcome: 'wrong_secret' },
      { guildId: GUILD, at: AT - 2_000, event: 'topgg ?', outcome: 'stale_signature' },
    ];
    const shown = flat(
      deliveriesPage({ lines: refused, fixes: fixesOf(refused, new Set(['topgg'])), listName, i18n }).text,
    );
    expect(shown).not.toContain('wrong token');
    // Each list by its name: the kind the receiver could not read, in words.
    expect(shown).toContain('<td>Top.gg unknown event</td>');
    expect(shown).toContain('<td>discord.place unknown event</td>');
    expect(shown).toContain('refused: the signature or secret does not match the list&#39;s secret');
    expect(shown).toContain(
      'Top.gg&#39;s deliveries do not match LISTING_TOPGG_SECRET: set it to the secret on Top.gg&#39;s webhook page and restart, or add the list with /setup listing add site:topgg',
    );
    expect(shown).toContain(
      'discord.place&#39;s deliveries do not match its secret: copy the secret from discord.place&#39;s webhook page again with /setup listing add site:discordplace',
    );
    expect(shown).toContain('set this machine&#39;s clock right (NTP)');
  });
});

describe('the stats page', () => {
  const first = Date.UTC(2026, 10, 23);
  const data: StatsData = {
    days: [first, first + DAY_MS, first + 2 * DAY_MS],
    votes: [4, 0, 1200],
    ratings: [0, 1, 0, 0, 2, 3],
    reviews: 6,
    averageRating: 4.1666,
    bySite: [
      { name: 'Guilds', votes: [3, 0, 1000] },
      { name: HOSTILE, votes: [1, 0, 200] },
    ],
  };
  const page = flat(statsPage({ guildId: GUILD, data, countingSince: new Date(first), i18n }).text);

  it('shows the picture /stats draws, served by the page, with the alt text /stats gives it', () => {
    expect(page).toContain(
      `<img class="chart" src="/servers/${GUILD}/stats.png" alt="Bar charts: 1,204 votes over the last 3 days, and 6 reviews by rating.`,
    );
  });

  it('puts every number of the picture in tables: votes per day and per list, and the ratings', () => {
    expect(page).toContain('<th scope="row">Nov 25</th> <td>1,200</td> <td>1,000</td><td>200</td>');
    expect(page).toContain(`<th>${HOSTILE_ESCAPED}</th>`);
    expect(page).toContain('<th scope="row">5 ★</th> <td>3</td>');
    expect(page).toContain('6 reviews, 4.2 stars on average.');
    expect(page).toContain('1,204 votes in 3 days, 401.3 a day on average.');
    expect(page).not.toContain(HOSTILE);
  });

  it('says so when no review has been seen', () => {
    const none = statsPage({
      guildId: GUILD,
      data: { ...data, ratings: [0, 0, 0, 0, 0, 0], reviews: 0, averageRating: null },
      countingSince: new Date(first),
      i18n,
    }).text;
    expect(none).toContain('No review seen yet.');
  });
});
