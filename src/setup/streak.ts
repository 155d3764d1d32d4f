import type { ChatInputCommandInteraction } from 'discord.js';
import type { BaseContext } from '../runtime/context.js';
import { setupName } from '../bot/command-options.js';
import { UserFacingError } from '../bot/user-error.js';
import { translatorFor } from '../i18n/index.js';
import { STREAK_GRACE_HOURS_MAX } from '../streaks/streak.js';
import type { MessageView } from '../views/message.js';
import { setupAnswer } from './answer.js';
import { refuseEnvironmentSetting } from './manage-server.js';

/** `/setup streak grace-hours:<n>`: how long after a vote runs out the next one keeps the streak going. */
export async function setStreak(interaction: ChatInputCommandInteraction, ctx: BaseContext): Promise<MessageView> {
  const guildId = interaction.guildId!;
  refuseEnvironmentSetting(ctx.servers, guildId, 'streakGraceHours');
  const hours = interaction.options.getInteger(setupName('graceHours'), true);
  // Discord holds the option to its bounds; a forged interaction is not held to them.
  if (!Number.isInteger(hours) || hours < 0 || hours > STREAK_GRACE_HOURS_MAX)
    throw new UserFacingError('refusal.badGraceHours', { max: STREAK_GRACE_HOURS_MAX });
  await ctx.servers.setSettings(guildId, { streakGraceHours: hours });
  return setupAnswer('setup.streak.set', { hours }, translatorFor(interaction.locale));
}
