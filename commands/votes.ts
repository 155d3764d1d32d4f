import { SlashCommandBuilder } from '@discordjs/builders';
import { InteractionContextType, type ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/bot/context.js';
import { isEphemeral, publicOption } from '../src/bot/command-options.js';
import { replyInTime } from '../src/bot/respond.js';
import { votesView } from '../src/views/votes.js';

export const data = new SlashCommandBuilder()
  .setName('votes')
  .setDescription("List this server's active votes with the all-time and monthly totals")
  .setContexts(InteractionContextType.Guild)
  .addBooleanOption(publicOption('Show the list to everyone in the channel'));

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const work = ctx.api.listVotes().then((list) => votesView({ list, page: 1, now: ctx.now() }));
  await replyInTime(interaction, work, { ephemeral: isEphemeral(interaction) });
}
