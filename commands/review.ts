import { SlashCommandBuilder, InteractionContextType, type ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/runtime/context.js';
import { commandNamed, isEphemeral, memberOption, publicOption, targetUser } from '../src/bot/command-options.js';
import { isModerator } from '../src/bot/permissions.js';
import { replyInTime } from '../src/bot/respond.js';
import { translatorFor } from '../src/i18n/index.js';
import { reviewView } from '../src/views/review.js';

export const data = commandNamed(new SlashCommandBuilder(), 'review')
  .setContexts(InteractionContextType.Guild)
  .addUserOption(memberOption('option.review.member.description'))
  .addBooleanOption(publicOption('option.review.public.description'));

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const user = targetUser(interaction);
  // The button is offered when a moderator asks (on a public answer everyone sees it); the click
  // and the form are checked again regardless, so it grants nothing by itself.
  const showReplyButton = isModerator(interaction, ctx.settings.moderatorRoleIds);
  const i18n = translatorFor(interaction.locale);
  const work = ctx.api
    .getReview(user.id)
    .then((review) =>
      reviewView({ authorId: user.id, review, showReplyButton, i18n, authorName: ctx.names.get(user.id) }),
    );
  await replyInTime(interaction, work, { ephemeral: isEphemeral(interaction) });
}
