import { unknownSettingsInFile, unknownSettingText } from '../config/unknown-settings.js';
import type { Logger } from '../core/log.js';

/** A warning at start for each name in the settings file that no setting has: a typo is otherwise a setting silently unset. */
export function warnUnknownSettings(logger: Logger): void {
  for (const unknown of unknownSettingsInFile())
    logger.warn({ setting: unknown.name, nearest: unknown.nearest }, unknownSettingText(unknown));
}
