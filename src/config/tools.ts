// The one-shot tools' settings: each reads only what it needs, so it runs before the rest is set up.
// (The doctor reads the bot's own settings, bot.ts.)
import { required } from './fields.js';
import { deepFreeze, fromDotenv, readOrThrow } from './load.js';
import {
  DATABASE_URL,
  DISCORD_FIELDS,
  discordSettings,
  type DiscordSettings,
  SECRETS_FIELDS,
  secretKeys,
  secretKeyText,
} from './shared-fields.js';
import type { SecretKeys } from '../secrets/secret-box.js';
import type { DatabaseTarget } from '../store/database-url.js';

export type DeployConfig = DiscordSettings;

/** The deploy script needs only the Discord part: it must work before the service is set up. */
export const loadDeployConfig = fromDotenv((env): DeployConfig =>
  Object.freeze(discordSettings(readOrThrow(DISCORD_FIELDS, env))),
);

export interface RotateConfig {
  readonly database: DatabaseTarget;
  readonly secrets: SecretKeys;
}

const ROTATE_FIELDS = {
  DATABASE_URL,
  ...SECRETS_FIELDS,
  SECRETS_KEY: required(
    secretKeyText('SECRETS_KEY'),
    'the new key, which seals every secret from now on (openssl rand -base64 32)',
  ),
};

/** `npm run rotate-secrets` needs only the store and the keys: it must run with the bot stopped and Discord unset. */
export const loadRotateConfig = fromDotenv((env): RotateConfig => {
  const e = readOrThrow(ROTATE_FIELDS, env);
  return deepFreeze({
    database: e.DATABASE_URL,
    secrets: secretKeys(e.SECRETS_KEY, e.SECRETS_KEY_PREVIOUS),
  });
});
