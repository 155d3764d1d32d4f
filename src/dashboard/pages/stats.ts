import type { Translator } from '../../i18n/index.js';
import { shownStars, type StatsData } from '../../stats/stats-data.js';
import { oneDecimal } from '../../stats/stats-view.js';
import { html, type Html } from '../html.js';
import { moment, pagePath, PAGES } from './form.js';

export interface StatsPageInput {
  guildId: string;
  /** The numbers the picture is drawn from (readStats), the same /stats reads. */
  data: StatsData;
  /** When the bot began recording votes. */
  countingSince: Date;
  i18n: Translator;
}

/**
 * The same picture as /stats (served at stats.png, drawn by src/stats/render-stats.ts) and every
 * number in it as tables, for those who cannot see it and those who want to copy it.
 */
export function statsPage({ guildId, data, countingSince, i18n }: StatsPageInput): Html {
  const { t } = i18n;
  const days = data.days.length;
  const total = data.votes.reduce((sum, votes) => sum + votes, 0);
  const alt = t('stats.imageAlt', { total, days, reviews: data.reviews });
  const sites = data.bySite ?? [];
  const dayRows = data.days.map(
    (day, i) =>
      html`<tr>
        <th scope="row">${i18n.dayName(day)}</th>
        <td>${i18n.number(data.votes[i] ?? 0)}</td>
        ${sites.map((site) => html`<td>${i18n.number(site.votes[i] ?? 0)}</td>`)}
      </tr>`,
  );
  const ratings =
    data.averageRating === null
      ? html`<p>${t('stats.noReviews')}</p>`
      : html`<table>
            <thead>
              <tr>
                <th>${t('stats.chart.ratingsTitle')}</th>
                <th>${t('stats.chart.ratingsAxis')}</th>
              </tr>
            </thead>
            <tbody>
              ${shownStars(data).map(
                (stars) =>
                  html`<tr>
                    <th scope="row">${t('stats.chart.stars', { stars })}</th>
                    <td>${i18n.number(data.ratings[stars] ?? 0)}</td>
                  </tr>`,
              )}
            </tbody>
          </table>
          <p>${t('stats.ratingsSummary', { reviews: data.reviews, average: oneDecimal(data.averageRating) })}</p>`;
  return html`<section class="stats">
    <h2>${t('stats.title', { days })}</h2>
    <div class="chart-box"><img class="chart" src="${pagePath(guildId, PAGES.statsPicture)}" alt="${alt}" /></div>
    <h2>${t('stats.votesHeading')}</h2>
    <table>
      <thead>
        <tr>
          <th>${t('stats.chart.daysAxis')}</th>
          <th>${t('stats.chart.votesAxis')}</th>
          ${sites.map((site) => html`<th>${site.name}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${dayRows}
      </tbody>
    </table>
    <p>${t('stats.votesSummary', { total, days, average: oneDecimal(total / days) })}</p>
    <p>${t('dashboard.pages.stats.since')} ${moment(countingSince.getTime(), t('common.unknown'))}</p>
    <h2>${t('stats.ratingsHeading')}</h2>
    ${ratings}
  </section>`;
}
