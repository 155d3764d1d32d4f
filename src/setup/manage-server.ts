import { UserFacingError } from '../bot/user-error.js';
import { SecretsKeyMissing } from '../servers/servers.js';
import { SETTING_VARIABLES, type SettingName } from '../config/server-variables.js';
import { setByEnvironment } from '../servers/server-settings.js';
import type { Servers } from '../servers/servers.js';

/** In single-server mode the environment's values stand: /setup may only fill what it leaves empty. */
export function settingFixed(servers: Pick<Servers, 'environment'>, guildId: string, name: SettingName): boolean {
  const env = servers.environment?.guildId === guildId ? servers.environment.settings : undefined;
  return setByEnvironment(name, env);
}

/** Refuses a change to a setting the environment fixes, naming its variable. */
export function refuseEnvironmentSetting(
  servers: Pick<Servers, 'environment'>,
  guildId: string,
  name: SettingName,
): void {
  if (settingFixed(servers, guildId, name))
    throw new UserFacingError('refusal.setByEnvironment', { variable: SETTING_VARIABLES[name] });
}

/** Storing a secret needs SECRETS_KEY: its absence is the operator's to fix, said plainly. */
export async function sealing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SecretsKeyMissing) throw new UserFacingError('refusal.secretsKeyMissing');
    throw error;
  }
}
