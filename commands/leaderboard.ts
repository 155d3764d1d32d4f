import { SlashCommandBuilder, InteractionContextType, type ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/runtime/context.js';
import {
  commandNamed,
  isEphemeral,
  monthOption,
  monthText,
  publicOption,
  siteChoice,
  siteOption,
} from '../src/bot/command-options.js';
import { replyInTime } from '../src/bot/respond.js';
import { UserFacingError } from '../src/bot/user-error.js';
import { english, localizations } from '../src/i18n/index.js';
import { leaderboardWithNames, streakBoardWithNames } from '../src/interactions/leaderboard-page.js';
import { monthKey, monthOf, parseMonth } from '../src/leaderboard/month.js';

const KIND = english.t('option.leaderboard.kind.name');
const kinds = (['votes', 'streak'] as const).map((kind) => ({
  name: english.t(`leaderboard.kind.${kind}`),
  name_localizations: localizations(`leaderboard.kind.${kind}`),
  value: kind,
}));

export const data = commandNamed(new SlashCommandBuilder(), 'leaderboard')
  .setContexts(InteractionContextType.Guild)
  .addStringOption(monthOption('option.leaderboard.month.description'))
  .addStringOption((o) =>
    o
      .setName(KIND)
      .setNameLocalizations(localizations('option.leaderboard.kind.name'))
      .setDescription(english.t('option.leaderboard.kind.description'))
      .setDescriptionLocalizations(localizations('option.leaderboard.kind.description'))
      .addChoices(...kinds),
  )
  .addBooleanOption(publicOption('option.leaderboard.public.description'))
  .addStringOption(siteOption('option.leaderboard.site.description'));

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  // The streaks going now: a month and a list do not apply to them (a day with a vote on any list counts).
  if (interaction.options.getString(KIND) === 'streak') {
    const work = streakBoardWithNames(interaction, 1, ctx);
    await replyInTime(interaction, work, { ephemeral: isEphemeral(interaction) });
    return;
  }
  const current = monthOf(ctx.now());
  const typed = monthText(interaction);
  const month = typed === undefined ? current : parseMonth(typed);
  if (month === null) throw new UserFacingError('refusal.badMonth', { example: monthKey(current) });
  const work = leaderboardWithNames(interaction, month, 1, ctx, siteChoice(interaction));
  await replyInTime(interaction, work, { ephemeral: isEphemeral(interaction) });
}
