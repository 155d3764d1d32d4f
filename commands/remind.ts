import { SlashCommandBuilder, InteractionContextType, type ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/runtime/context.js';
import { commandNamed, remindChoice } from '../src/bot/command-options.js';
import { replyInTime } from '../src/bot/respond.js';
import { english, translatorFor } from '../src/i18n/index.js';
import { remindOffView, remindOnView, remindStatusView, type RemindState } from '../src/views/remind.js';

export const data = commandNamed(new SlashCommandBuilder(), 'remind')
  .setContexts(InteractionContextType.Guild)
  .addSubcommand(remindChoice('on'))
  .addSubcommand(remindChoice('off'))
  .addSubcommand(remindChoice('status'));

// Discord sends the English subcommand name whatever the member's language.
const ON = english.t('option.remind.on.name');
const OFF = english.t('option.remind.off.name');

async function stateOf(userId: string, ctx: BotContext): Promise<RemindState> {
  const { reminders } = ctx;
  const [optIn, last, running] = await Promise.all([
    reminders.reminderOptIn(userId),
    reminders.lastReminder(userId),
    reminders.scheduledExpiry(userId),
  ]);
  const now = ctx.now().getTime();
  return {
    on: optIn !== undefined,
    voteEndsAt: running && running.endsAt > now ? new Date(running.endsAt) : undefined,
    last,
    fallbackChannelId: ctx.settings.reminderChannelId,
  };
}

async function answer(choice: string, interaction: ChatInputCommandInteraction, ctx: BotContext) {
  const i18n = translatorFor(interaction.locale);
  const userId = interaction.user.id;
  if (choice === ON) {
    await ctx.reminders.optInReminders(userId, interaction.locale, ctx.now().getTime());
    return remindOnView(await stateOf(userId, ctx), i18n);
  }
  if (choice === OFF) return remindOffView(await ctx.reminders.optOutReminders(userId), i18n);
  return remindStatusView(await stateOf(userId, ctx), i18n);
}

/** A member's own setting: answered only to them. */
export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const work = answer(interaction.options.getSubcommand(true), interaction, ctx);
  await replyInTime(interaction, work, { ephemeral: true });
}
