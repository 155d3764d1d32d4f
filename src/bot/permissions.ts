import { GuildMemberRoleManager, PermissionFlagsBits, type Interaction } from 'discord.js';
import { UserFacingError } from './user-error.js';

/**
 * A moderator has Manage Server or one of the configured roles. Permissions come from the
 * interaction's own member payload, which Discord computes per interaction.
 */
export function isModerator(interaction: Interaction, moderatorRoleIds: readonly string[]): boolean {
  if (interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild)) return true;
  const roles = interaction.member?.roles;
  if (!roles || moderatorRoleIds.length === 0) return false;
  // A cached guild gives a role manager; an uncached one leaves the raw id array.
  if (roles instanceof GuildMemberRoleManager) return roles.cache.hasAny(...moderatorRoleIds);
  return moderatorRoleIds.some((id) => roles.includes(id));
}

/** Refuses anyone but a moderator, saying who may. */
export function requireModerator(interaction: Interaction, moderatorRoleIds: readonly string[]): void {
  if (!isModerator(interaction, moderatorRoleIds)) throw new UserFacingError('refusal.moderatorsOnly');
}
