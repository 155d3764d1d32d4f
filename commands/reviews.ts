import { SlashCommandBuilder, InteractionContextType, type ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/runtime/context.js';
import { commandNamed, reviewsChoice } from '../src/bot/command-options.js';
import type { Gate } from '../src/bot/permissions.js';
import { replyInTime } from '../src/bot/respond.js';
import { reviewInboxWithNames } from '../src/interactions/reviews-page.js';

export const gate: Gate = 'moderator';

export const data = commandNamed(new SlashCommandBuilder(), 'reviews')
  .setContexts(InteractionContextType.Guild)
  .addSubcommand(reviewsChoice('pending'));

/**
 * `/reviews pending`: moderators only, by the Reply button's own rule (Manage Server or a moderator
 * role), so no default permission hides it from role-based moderators. Always ephemeral: it is a worklist.
 */
export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  await replyInTime(interaction, reviewInboxWithNames(interaction, 1, ctx), { ephemeral: true });
}
