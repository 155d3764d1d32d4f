import type { SlashCommandBooleanOption, SlashCommandUserOption } from '@discordjs/builders';
import type { ChatInputCommandInteraction, User } from 'discord.js';

// The options several commands share, named once so the builder and the reader cannot drift apart.
const MEMBER = 'member';
const PUBLIC = 'public';

/** `member`: whose answer to show; the caller when left out. */
export const memberOption = (description: string) => (option: SlashCommandUserOption) =>
  option.setName(MEMBER).setDescription(description);

/** `public`: show the answer to the channel instead of only to the caller. */
export const publicOption = (description: string) => (option: SlashCommandBooleanOption) =>
  option.setName(PUBLIC).setDescription(description);

/** The `member` option, or the caller when it is left out. */
export function targetUser(interaction: ChatInputCommandInteraction): User {
  return interaction.options.getUser(MEMBER) ?? interaction.user;
}

/** Answers about a member stay between the bot and the caller unless `public:true` is chosen. */
export function isEphemeral(interaction: ChatInputCommandInteraction): boolean {
  return !(interaction.options.getBoolean(PUBLIC) ?? false);
}
