import { SlashCommandBuilder, InteractionContextType, type ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/runtime/context.js';
import { commandNamed, isEphemeral, memberOption, publicOption, targetUser } from '../src/bot/command-options.js';
import { replyInTime } from '../src/bot/respond.js';
import { translatorFor } from '../src/i18n/index.js';
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
  // A vote the mirror shows as active is answered from it: no service call, no wait.
  const mirrored = await ctx.votes?.activeVote(user.id);
  const status = mirrored ? Promise.resolve(mirrored) : ctx.api.getVote(user.id);
  // A running vote the service shows makes the vote known (voter role); not awaited before the answer.
  if (!mirrored)
    void status.then(
      (s) => ctx.votes?.learned(user.id, s),
      () => undefined,
    );
  // From memory once loaded; a slow or failing store leaves the streak out rather than the answer waiting.
  const streak = ctx.streaks.streakOf(user.id, ctx.now().getTime()).catch(() => undefined);
  const work = Promise.all([status, streak]).then(([status, streak]) =>
    voteView({ userId: user.id, self, status, now: ctx.now(), voteUrl, streak, i18n }),
  );
  await replyInTime(interaction, work, { ephemeral: isEphemeral(interaction) });
}
