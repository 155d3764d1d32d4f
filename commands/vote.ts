import { SlashCommandBuilder } from '@discordjs/builders';
import { InteractionContextType, type ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/bot/context.js';
import { isEphemeral, targetUser } from '../src/bot/command-options.js';
import { replyInTime, tokenBudgetMs } from '../src/bot/respond.js';
import { voteView } from '../src/views/vote.js';

export const data = new SlashCommandBuilder()
  .setName('vote')
  .setDescription("Show whether a member's vote for this server is active, and when it runs out")
  .setContexts(InteractionContextType.Guild)
  .addUserOption((option) => option.setName('member').setDescription('Whose vote to check (default: yours)'))
  .addBooleanOption((option) => option.setName('public').setDescription('Show the answer to everyone in the channel'));

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const receivedAt = Date.now();
  const user = targetUser(interaction);
  const work = ctx.api.getVote(user.id, { budgetMs: tokenBudgetMs(receivedAt) }).then((status) =>
    voteView({
      userId: user.id,
      self: user.id === interaction.user.id,
      status,
      now: ctx.now(),
      voteUrl: ctx.config.voteUrl,
    }),
  );
  await replyInTime(interaction, work, { ephemeral: isEphemeral(interaction) });
}
