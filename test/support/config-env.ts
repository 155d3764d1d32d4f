import { ConfigError } from '../../src/config/load.js';
import { parseConfig } from '../../src/config/bot.js';

/** The least environment the bot starts with; secrets are recognisable so tests can look for leaks. */
export const VALID_ENV = {
  DISCORD_TOKEN: 'MTAx.token-value-that-is-secret',
  DISCORD_CLIENT_ID: '110000000000000001',
  DISCORD_GUILD_ID: '220000000000000002',
  SERVICE_BASE_URL: 'https://api.example.com/v1',
  SERVICE_API_KEY: 'key-that-is-secret',
  SERVICE_APP_ID: 'appid-that-is-secret',
} as const;

/** The problems parseConfig reports for an environment it must refuse. */
export function problemsOf(env: Record<string, string | undefined>): readonly string[] {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}
