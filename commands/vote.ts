import { SlashCommandBuilder } from '@discordjs/builders';
import { InteractionContextType, type ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/bot/context.js';
import { isEphemeral, memberOption, publicOption, targetUser } from '../src/bot/command-options.js';
import { replyInTime } from '../src/bot/respond.js';
import { voteView } from '../src/views/vote.js';

export const data = new SlashCommandBuilder()
  .setName('vote')
  .setDescription("Show whether a member's vote for this server is active, and when it runs out")
  .setContexts(InteractionContextType.Guild)
  .addUserOption(memberOption('Whose vote to check (default: yours)'))
  .addBooleanOption(publicOption('Show the answer to everyone in the channel'));

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const user = targetUser(interaction);
  const self = user.id === interaction.user.id;
  const work = ctx.api
    .getVote(user.id)
    .then((status) => voteView({ userId: user.id, self, status, now: ctx.now(), voteUrl: ctx.config.voteUrl }));
  await replyInTime(interaction, work, { ephemeral: isEphemeral(interaction) });
}
