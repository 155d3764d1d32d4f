import { SlashCommandBuilder } from '@discordjs/builders';
import { InteractionContextType, type ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/bot/context.js';
import { isEphemeral } from '../src/bot/command-options.js';
import { replyInTime, tokenBudgetMs } from '../src/bot/respond.js';
import { votesView } from '../src/views/votes.js';

export const data = new SlashCommandBuilder()
  .setName('votes')
  .setDescription("List this server's active votes with the all-time and monthly totals")
  .setContexts(InteractionContextType.Guild)
  .addBooleanOption((option) => option.setName('public').setDescription('Show the list to everyone in the channel'));

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const receivedAt = Date.now();
  const work = ctx.api
    .listVotes({ budgetMs: tokenBudgetMs(receivedAt) })
    .then((list) => votesView({ list, page: 1, now: ctx.now() }));
  await replyInTime(interaction, work, { ephemeral: isEphemeral(interaction) });
}
