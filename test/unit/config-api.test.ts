import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { parseConfig, secretValues } from '../../src/config/bot.js';
import { ConfigError } from '../../src/config/load.js';
import { parseReceiverConfig, receiverSecretValues } from '../../src/config/receiver.js';
import { problemsOf, VALID_ENV } from '../support/config-env.js';

// API_ENABLED and API_KEYS: the vote API on the receiver's port, and one server's keys to it.
const KEY = `vrk_${'0123456789abcdef'.repeat(3)}`;
const OTHER_KEY = `vrk_${'fedcba9876543210'.repeat(2)}`;
const WITH_WEBHOOK = { ...VALID_ENV, WEBHOOK_PORT: '8090', WEBHOOK_TOKEN: 'guilds-token-0123456789' };
const MANY = { ...WITH_WEBHOOK, DISCORD_GUILD_ID: '', SERVICE_API_KEY: '', SERVICE_APP_ID: '', WEBHOOK_TOKEN: '' };
const SECRETS_KEY = randomBytes(32).toString('base64');

describe('the vote API in .env', () => {
  it('is off unless API_ENABLED=true, and then on the receiver with the keys API_KEYS lists', () => {
    expect(parseConfig(WITH_WEBHOOK).webhook?.api).toBeUndefined();
    expect(parseConfig({ ...WITH_WEBHOOK, API_ENABLED: 'false', API_KEYS: KEY }).webhook?.api).toBeUndefined();
    const on = parseConfig({ ...WITH_WEBHOOK, API_ENABLED: 'true', API_KEYS: ` ${KEY} , ${OTHER_KEY},` });
    expect(on.webhook?.api).toEqual({ keys: [KEY, OTHER_KEY] });
    expect(parseConfig({ ...WITH_WEBHOOK, API_ENABLED: 'true' }).webhook?.api).toEqual({ keys: [] });
  });

  it('keeps the keys out of every log line and answer', () => {
    const config = parseConfig({ ...WITH_WEBHOOK, API_ENABLED: 'true', API_KEYS: `${KEY},${OTHER_KEY}` });
    expect(secretValues(config)).toEqual(expect.arrayContaining([KEY, OTHER_KEY]));
  });

  it('stops the start on a key that is not vrk_ and 32 characters, never echoing it', () => {
    const problems = problemsOf({ ...WITH_WEBHOOK, API_ENABLED: 'true', API_KEYS: `${KEY},short-secret-value` });
    expect(problems).toEqual([expect.stringMatching(/^API_KEYS\.1 must be keys separated by commas, each vrk_/)]);
    expect(problems.join()).not.toContain('short-secret-value');
    expect(problemsOf({ ...WITH_WEBHOOK, API_ENABLED: 'yes' })).toEqual([
      expect.stringMatching(/^API_ENABLED must be true or false/),
    ]);
  });

  it('needs the receiver: API_ENABLED without WEBHOOK_PORT stops the start', () => {
    expect(problemsOf({ ...VALID_ENV, API_ENABLED: 'true' })).toEqual([
      "API_ENABLED is true without WEBHOOK_PORT: the vote API answers on the webhook receiver's port",
    ]);
  });

  it('refuses API_KEYS with many servers, where each makes its own with /setup api-key create', () => {
    const problems = problemsOf({ ...MANY, SECRETS_KEY, API_ENABLED: 'true', API_KEYS: KEY });
    expect(problems).toEqual([expect.stringMatching(/^API_KEYS is for a single server: .*\/setup api-key create/)]);
    expect(parseConfig({ ...MANY, SECRETS_KEY, API_ENABLED: 'true' }).webhook?.api).toEqual({ keys: [] });
  });

  it('is read the same by a receiver process, which masks the keys too', () => {
    const env = {
      DATABASE_URL: 'postgres://bot:pw@127.0.0.1:5432/bot',
      WEBHOOK_PORT: '8090',
      DISCORD_GUILD_ID: VALID_ENV.DISCORD_GUILD_ID,
      WEBHOOK_TOKEN: 'guilds-token-0123456789',
      API_ENABLED: 'true',
      API_KEYS: KEY,
    };
    const config = parseReceiverConfig(env, false);
    expect(config.webhook.api).toEqual({ keys: [KEY] });
    expect(receiverSecretValues(config)).toContain(KEY);
    expect(() => parseReceiverConfig({ ...env, DISCORD_GUILD_ID: '', SECRETS_KEY }, false)).toThrow(ConfigError);
  });
});
