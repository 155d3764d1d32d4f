import type { ChatInputCommandInteraction, User } from 'discord.js';

/** The `member` option, or the caller when it is left out. */
export function targetUser(interaction: ChatInputCommandInteraction): User {
  return interaction.options.getUser('member') ?? interaction.user;
}

/** Answers about a member stay between the bot and the caller unless `public:true` is chosen. */
export function isEphemeral(interaction: ChatInputCommandInteraction): boolean {
  return !(interaction.options.getBoolean('public') ?? false);
}
