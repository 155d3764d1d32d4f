import { SlashCommandBuilder, InteractionContextType, type ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/runtime/context.js';
import { commandNamed, isEphemeral, memberOption, publicOption, targetUser } from '../src/bot/command-options.js';
import { replyInTime } from '../src/bot/respond.js';
import { translatorFor } from '../src/i18n/index.js';
import { memberVote } from '../src/interactions/member-vote.js';
import { voteView } from '../src/views/vote.js';

export const data = commandNamed(new SlashCommandBuilder(), 'vote')
  .setContexts(InteractionContextType.Guild)
  .addUserOption(memberOption('option.vote.member.description'))
  .addBooleanOption(publicOption('option.vote.public.description'));

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const user = targetUser(interaction);
  const self = user.id === interaction.user.id;
  const i18n = translatorFor(interaction.locale);
  const { voteUrl } = ctx.settings;
  const work = memberVote(ctx, interaction.guildId!, user.id).then((vote) =>
    voteView({ userId: user.id, self, now: ctx.now(), voteUrl, i18n, ...vote }),
  );
  await replyInTime(interaction, work, { ephemeral: isEphemeral(interaction) });
}
