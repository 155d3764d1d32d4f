import { SlashCommandBuilder } from '@discordjs/builders';
import { InteractionContextType, type ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/bot/context.js';
import { isEphemeral, memberOption, publicOption, targetUser } from '../src/bot/command-options.js';
import { isModerator } from '../src/bot/permissions.js';
import { replyInTime } from '../src/bot/respond.js';
import { reviewView } from '../src/views/review.js';

export const data = new SlashCommandBuilder()
  .setName('review')
  .setDescription("Show a member's review of this server")
  .setContexts(InteractionContextType.Guild)
  .addUserOption(memberOption('Whose review to show (default: yours)'))
  .addBooleanOption(publicOption('Show the review to everyone in the channel'));

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const user = targetUser(interaction);
  // The button is offered when a moderator asks (on a public answer everyone sees it); the click
  // and the form are checked again regardless, so it grants nothing by itself.
  const showReplyButton = isModerator(interaction, ctx.config.moderatorRoleIds);
  const work = ctx.api.getReview(user.id).then((review) => reviewView({ authorId: user.id, review, showReplyButton }));
  await replyInTime(interaction, work, { ephemeral: isEphemeral(interaction) });
}
