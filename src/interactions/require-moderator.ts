import type { Interaction } from 'discord.js';
import { isModerator } from '../bot/permissions.js';
import { UserFacingError } from '../bot/user-error.js';

export function requireModerator(interaction: Interaction, moderatorRoleIds: readonly string[]): void {
  if (!isModerator(interaction, moderatorRoleIds)) {
    throw new UserFacingError('refusal.moderatorsOnly');
  }
}
