import { SlashCommandBuilder } from '@discordjs/builders';
import { InteractionContextType, type ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/bot/context.js';
import { commandNamed, isEphemeral, publicOption } from '../src/bot/command-options.js';
import { replyInTime } from '../src/bot/respond.js';
import { translatorFor } from '../src/i18n/index.js';
import { votesView } from '../src/views/votes.js';

export const data = commandNamed(new SlashCommandBuilder(), 'votes')
  .setContexts(InteractionContextType.Guild)
  .addBooleanOption(publicOption('option.votes.public.description'));

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const i18n = translatorFor(interaction.locale);
  const work = ctx.api.listVotes().then((list) => votesView({ list, page: 1, now: ctx.now(), i18n }));
  await replyInTime(interaction, work, { ephemeral: isEphemeral(interaction) });
}
