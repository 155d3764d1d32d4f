import {
  SlashCommandBuilder,
  type SlashCommandIntegerOption,
  InteractionContextType,
  MessageFlags,
  type ChatInputCommandInteraction,
} from 'discord.js';
import type { BotContext } from '../src/runtime/context.js';
import { commandNamed, isEphemeral, publicOption } from '../src/bot/command-options.js';
import type { Gate } from '../src/bot/permissions.js';
import type { NoticeKey } from '../src/i18n/index.js';
import { UserFacingError } from '../src/bot/user-error.js';
import { english, localizations, translatorFor } from '../src/i18n/index.js';
import { renderStats } from '../src/stats/render-stats.js';
import { readStats, STATS_DEFAULT_DAYS, STATS_MAX_DAYS } from '../src/stats/stats-data.js';
import { statsView } from '../src/stats/stats-view.js';

const DAYS = english.t('option.days.name');

const daysOption = (option: SlashCommandIntegerOption) =>
  option
    .setName(DAYS)
    .setNameLocalizations(localizations('option.days.name'))
    .setDescription(english.t('option.stats.days.description', { days: STATS_DEFAULT_DAYS }))
    .setDescriptionLocalizations(withDefaultDays(localizations('option.stats.days.description')))
    .setMinValue(1)
    .setMaxValue(STATS_MAX_DAYS);

/** The default named once: the catalogs' `{days}` filled in every language, as t() fills it in English. */
function withDefaultDays(texts: ReturnType<typeof localizations>): ReturnType<typeof localizations> {
  const days = String(STATS_DEFAULT_DAYS);
  return Object.fromEntries(Object.entries(texts).map(([locale, text]) => [locale, text?.replace('{days}', days)]));
}

export const data = commandNamed(new SlashCommandBuilder(), 'stats')
  .setContexts(InteractionContextType.Guild)
  .addIntegerOption(daysOption)
  .addBooleanOption(publicOption('option.stats.public.description'));

/**
 * Moderators only: it shows the whole server's votes and reviews, and each picture costs the
 * process some CPU, so a member cannot make the bot draw on a loop.
 */
export const gate: Gate = 'moderator';
export const refusal: NoticeKey = 'refusal.statsModeratorsOnly';

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const days = interaction.options.getInteger(DAYS) ?? STATS_DEFAULT_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > STATS_MAX_DAYS) {
    throw new UserFacingError('refusal.badDays', { max: STATS_MAX_DAYS });
  }
  // Deferred before any work: the first picture starts the drawing thread and loads chart.js and the canvas.
  await interaction.deferReply({ flags: isEphemeral(interaction) ? MessageFlags.Ephemeral : undefined });
  // The picture is the server's, so it speaks the server's language, and its text with it.
  const i18n = translatorFor(interaction.guildLocale);
  const [stats, since] = await Promise.all([readStats(ctx.stats, ctx.now(), days), ctx.ledger.countingSince()]);
  const started = performance.now();
  const png = await renderStats(stats, i18n).catch((err: unknown) => {
    ctx.logger.warn({ err, guildId: interaction.guildId }, 'the stats picture could not be drawn; answering with text');
    return null;
  });
  if (png)
    ctx.logger.debug({ guildId: interaction.guildId, ms: Math.round(performance.now() - started) }, 'stats drawn');
  await interaction.editReply(statsView({ data: stats, png, countingSince: new Date(since), i18n }));
}
