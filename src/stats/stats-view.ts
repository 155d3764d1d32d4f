import { EmbedBuilder } from '../views/embed-builder.js';
import { ATTACHMENT_DESCRIPTION_MAX, EMBED_DESCRIPTION_MAX, EMBED_FIELD_VALUE_MAX } from '../core/discord-limits.js';
import type { Translator } from '../i18n/index.js';
import { shownStars, type StatsData } from './stats-data.js';
import { discordTime, truncate } from '../core/discord-text.js';
import { messageView, type MessageView } from '../views/message.js';
import { ToneColour } from '../views/theme.js';

const STATS_FILE = 'stats.png';

export interface StatsViewInput {
  data: StatsData;
  /** The picture; null when it could not be drawn, and the answer says so. */
  png: Buffer | null;
  /** When the bot began recording votes. */
  countingSince: Date;
  i18n: Translator;
}

export type StatsView = MessageView & { files: Array<{ attachment: Buffer; name: string; description: string }> };

/** The picture, and every number in it as text for those who cannot see it. */
export function statsView({ data, png, countingSince, i18n }: StatsViewInput): StatsView {
  const { t } = i18n;
  const days = data.days.length;
  const total = data.votes.reduce((sum, votes) => sum + votes, 0);
  const dayLines = data.days.map((day, i) => t('stats.line', { label: i18n.dayName(day), count: data.votes[i] ?? 0 }));
  const description = [
    ...(png ? [] : [`**${t('stats.drawFailed')}**`, '']),
    t('stats.votesHeading'),
    ...dayLines,
    '',
    t('stats.votesSummary', { total, days, average: oneDecimal(total / days) }),
    ...bySiteLines(data, i18n),
    t('leaderboard.since', { date: discordTime(countingSince, 'D') }),
  ].join('\n');
  const ratings =
    data.averageRating === null
      ? t('stats.noReviews')
      : [
          ...shownStars(data).map((stars) =>
            t('stats.line', { label: t('stats.chart.stars', { stars }), count: data.ratings[stars] ?? 0 }),
          ),
          t('stats.ratingsSummary', { reviews: data.reviews, average: oneDecimal(data.averageRating) }),
        ].join('\n');
  const embed = new EmbedBuilder()
    .setColor(png ? ToneColour.info : ToneColour.warning)
    .setTitle(t('stats.title', { days }))
    .setDescription(truncate(description, EMBED_DESCRIPTION_MAX))
    .addFields({ name: t('stats.ratingsHeading'), value: truncate(ratings, EMBED_FIELD_VALUE_MAX) });
  if (!png) return { ...messageView(embed), files: [] };
  embed.setImage(`attachment://${STATS_FILE}`);
  const alt = t('stats.imageAlt', { total, days, reviews: data.reviews });
  return {
    ...messageView(embed),
    files: [{ attachment: png, name: STATS_FILE, description: truncate(alt, ATTACHMENT_DESCRIPTION_MAX) }],
  };
}

/** 2.5, not 2.4999: averages read at one decimal. */
export const oneDecimal = (value: number) => Math.round(value * 10) / 10;

/** Each list's votes over the days shown, as the stacked bars and their legend show them. */
function bySiteLines({ bySite }: StatsData, { t }: Translator): string[] {
  if (!bySite) return [];
  const lines = bySite.map(({ name, votes }) =>
    t('stats.line', { label: name, count: votes.reduce((sum, count) => sum + count, 0) }),
  );
  return [t('stats.bySiteHeading'), ...lines];
}
