import { installProcessGuards } from '../bot/process-guards.js';
import { unknownSettingsInFile, unknownSettingText } from '../config/unknown-settings.js';
import { createLogger, type LogFormat, type Logger, type LogLevel } from '../core/log.js';

/**
 * The first steps of every long-running process, once its settings are read: its logger (the
 * secrets masked in every line), a warning for each unknown name in the settings file, and the
 * process-wide guards, so nothing before the first line of work can fail unlogged.
 */
export function processLogger(
  config: { logLevel: LogLevel; logFormat: LogFormat },
  secrets: readonly string[],
): Logger {
  const logger = createLogger(config.logLevel, secrets, undefined, config.logFormat);
  // A typo in the settings file is otherwise a setting silently unset.
  for (const unknown of unknownSettingsInFile())
    logger.warn({ setting: unknown.name, nearest: unknown.nearest }, unknownSettingText(unknown));
  installProcessGuards(logger);
  return logger;
}
