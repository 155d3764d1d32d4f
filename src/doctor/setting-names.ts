import { unknownSettings, unknownSettingsInFile, unknownSettingText } from '../config/unknown-settings.js';
import { pass, warn, type Check } from './check.js';

/** Names in the settings file that are no setting: a typo leaves the setting meant silently unset. */
export const settingNamesCheck: Check = {
  name: 'setting names',
  async run(state) {
    const unknown = state.env === undefined ? unknownSettingsInFile() : unknownSettings(Object.keys(state.env));
    if (unknown.length === 0) return pass('every name set is a setting of the bot.');
    const text = unknown.map(unknownSettingText).join('; ');
    return warn(
      text.endsWith('?') ? text : `${text}.`,
      unknown.some((u) => u.nearest !== undefined)
        ? 'rename each to the setting it meant (or remove it), then start the bot again.'
        : 'remove it, or set the setting it was meant for (docs/configuration.md).',
    );
  },
};
