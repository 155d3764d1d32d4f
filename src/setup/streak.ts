import { UserFacingError } from '../bot/user-error.js';
import { STREAK_GRACE_HOURS_MAX } from '../streaks/streak.js';
import { changed, changeResult, type ApplyChange } from './change.js';
import { refuseEnvironmentSetting } from './manage-server.js';

export interface StreakInput {
  graceHours: number;
}

/** `/setup streak grace-hours:<n>`: how long after a vote runs out the next one keeps the streak going. */
export const applyStreak: ApplyChange<StreakInput> = async (ctx, target, { graceHours: hours }, actor) => {
  refuseEnvironmentSetting(ctx.servers, target.guildId, 'streakGraceHours');
  // Discord holds the option to its bounds; a forged interaction or form is not held to them.
  if (!Number.isInteger(hours) || hours < 0 || hours > STREAK_GRACE_HOURS_MAX)
    throw new UserFacingError('refusal.badGraceHours', { max: STREAK_GRACE_HOURS_MAX });
  await ctx.setup.changes.setSettings(target.guildId, { streakGraceHours: hours });
  const vars = () => ({ hours });
  return changed(ctx, target, actor, changeResult('setup.streak.set', vars));
};
