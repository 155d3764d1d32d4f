import type { Interaction } from 'discord.js';
import { isModerator } from '../bot/permissions.js';
import { UserFacingError } from '../bot/user-error.js';

export function requireModerator(interaction: Interaction, moderatorRoleIds: readonly string[]): void {
  if (!isModerator(interaction, moderatorRoleIds)) {
    throw new UserFacingError(
      'Only moderators can reply to reviews: members with Manage Server, or with one of the moderator roles in the bot’s settings.',
      'Moderators only',
    );
  }
}
