import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { ConfigError } from '../../src/config/load.js';
import { parseConfig } from '../../src/config/bot.js';
import { parseReceiverConfig } from '../../src/config/receiver.js';
import { parseRestProxyConfig } from '../../src/config/rest-proxy.js';
import { problemsOf, VALID_ENV } from '../support/config-env.js';

const POSTGRES = 'postgres://bot:pw-of-the-store@127.0.0.1:5432/bot';
const SECRETS_KEY = randomBytes(32).toString('base64');

function receiverProblems(env: Record<string, string | undefined>): readonly string[] {
  try {
    parseReceiverConfig(env, false);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('ROLE and the inbox poll', () => {
  it('runs the bot and its receiver by default, and polls the inbox every 30 s', () => {
    const config = parseConfig(VALID_ENV);
    expect(config.role).toBe('all');
    expect(config.inboxPollMs).toBe(30_000);
  });

  it('reads ROLE=bot and INBOX_POLL_SECONDS', () => {
    const config = parseConfig({ ...VALID_ENV, ROLE: 'bot', INBOX_POLL_SECONDS: '5' });
    expect(config.role).toBe('bot');
    expect(config.inboxPollMs).toBe(5_000);
  });

  it('refuses an unknown role and a poll of 0, naming each variable', () => {
    expect(problemsOf({ ...VALID_ENV, ROLE: 'worker', INBOX_POLL_SECONDS: '0' })).toEqual([
      expect.stringMatching(/^ROLE must be all .* bot .* receiver/),
      expect.stringMatching(/^INBOX_POLL_SECONDS must be at least 1/),
    ]);
  });
});

describe('a receiver-only process (ROLE=receiver)', () => {
  const many = { DATABASE_URL: POSTGRES, WEBHOOK_PORT: '8443', SECRETS_KEY };

  it('needs no Discord token, application id or service settings', () => {
    const config = parseReceiverConfig(many, false);
    expect(config.database).toEqual({ kind: 'postgres', url: POSTGRES });
    expect(config.webhook).toMatchObject({ port: 8443, path: '/webhook' });
    expect(config.guildId).toBeUndefined();
  });

  it('refuses a SQLite store, naming DATABASE_URL: a second process cannot share the file', () => {
    const problems = receiverProblems({ ...many, DATABASE_URL: 'file:./data/bot.sqlite' });
    expect(problems).toEqual([expect.stringMatching(/^DATABASE_URL must be a postgres:\/\/ URL for ROLE=receiver/)]);
    // Unset means the default SQLite file: refused the same way.
    expect(receiverProblems({ ...many, DATABASE_URL: undefined })).toEqual([expect.stringMatching(/^DATABASE_URL /)]);
  });

  it('needs a port, and the key that opens each server token (or one server and its token)', () => {
    expect(receiverProblems({ DATABASE_URL: POSTGRES })).toEqual([
      expect.stringMatching(/^WEBHOOK_PORT is missing/),
      expect.stringMatching(/^SECRETS_KEY is missing/),
    ]);
    expect(
      receiverProblems({ DATABASE_URL: POSTGRES, WEBHOOK_PORT: '8443', DISCORD_GUILD_ID: VALID_ENV.DISCORD_GUILD_ID }),
    ).toEqual([expect.stringMatching(/^WEBHOOK_TOKEN is missing/)]);
  });
});

describe('the REST proxy', () => {
  it('forwards to Discord at 25 requests per second (half its 50: two fixed windows fit one second) on 127.0.0.1:8080 by default', () => {
    expect(parseRestProxyConfig({}, false)).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      upstream: 'https://discord.com/api',
      requestsPerSecond: 25,
    });
  });

  it('refuses a rate above Discord’s global 50 per second, naming the variable', () => {
    expect(() => parseRestProxyConfig({ REST_PROXY_REQUESTS_PER_SECOND: '80' }, false)).toThrow(
      /REST_PROXY_REQUESTS_PER_SECOND must be at most 50/,
    );
  });
});
