import { SlashCommandBuilder } from '@discordjs/builders';
import { InteractionContextType, type ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/bot/context.js';
import { commandNamed, isEphemeral, monthOption, monthText, publicOption } from '../src/bot/command-options.js';
import { replyInTime } from '../src/bot/respond.js';
import { UserFacingError } from '../src/bot/user-error.js';
import { leaderboardWithNames } from '../src/interactions/leaderboard-page.js';
import { monthKey, monthOf, parseMonth } from '../src/leaderboard/month.js';

export const data = commandNamed(new SlashCommandBuilder(), 'leaderboard')
  .setContexts(InteractionContextType.Guild)
  .addStringOption(monthOption('option.leaderboard.month.description'))
  .addBooleanOption(publicOption('option.leaderboard.public.description'));

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const current = monthOf(ctx.now());
  const typed = monthText(interaction);
  const month = typed === undefined ? current : parseMonth(typed);
  if (month === null) throw new UserFacingError('refusal.badMonth', { example: monthKey(current) });
  const work = leaderboardWithNames(interaction, month, 1, ctx);
  await replyInTime(interaction, work, { ephemeral: isEphemeral(interaction) });
}
