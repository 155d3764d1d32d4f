import type { Config } from '../config/bot.js';
import { SETTING_VARIABLES } from '../config/server-variables.js';

export interface RoleToCheck {
  /** What the role is for, as the doctor's line names it. */
  label: string;
  /** The setting that holds its id, named in the fix. */
  setting: string;
  id: string | undefined;
}

/**
 * Every role the bot gives or takes, one line each: a feature that manages a role adds it here and
 * the doctor checks Manage Roles and the role's place below the bot's highest role.
 */
export function rolesToCheck(config: Config): RoleToCheck[] {
  return [{ label: 'voter role', setting: SETTING_VARIABLES.voterRoleId, id: config.server.voterRoleId }];
}
