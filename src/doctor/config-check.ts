import { ConfigError } from '../config/load.js';
import { loadConfig, parseConfig } from '../config/bot.js';
import { fail, pass, type Check } from './check.js';

/** The same parsing the bot does at start, so the doctor and the bot can never disagree. */
export const configCheck: Check = {
  name: 'configuration',
  async run(state) {
    try {
      state.config = state.env === undefined ? loadConfig() : parseConfig(state.env);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      return fail(
        `${error.problems.length} problem${error.problems.length === 1 ? '' : 's'}: ${error.problems.map((p) => p.replace(/\.$/, '')).join('; ')}.`,
        error.closing.charAt(0).toLowerCase() + error.closing.slice(1),
      );
    }
    return pass('.env and the environment parse, every required setting is there.');
  },
};
