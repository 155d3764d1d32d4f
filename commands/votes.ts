import { SlashCommandBuilder, InteractionContextType, type ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/runtime/context.js';
import { commandNamed, isEphemeral, publicOption, siteChoice, siteOption } from '../src/bot/command-options.js';
import { replyInTime } from '../src/bot/respond.js';
import { votesPageWithNames } from '../src/interactions/votes-page.js';

export const data = commandNamed(new SlashCommandBuilder(), 'votes')
  .setContexts(InteractionContextType.Guild)
  .addBooleanOption(publicOption('option.votes.public.description'))
  .addStringOption(siteOption('option.votes.site.description'));

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const work = votesPageWithNames(interaction, 1, ctx, siteChoice(interaction));
  await replyInTime(interaction, work, { ephemeral: isEphemeral(interaction) });
}
