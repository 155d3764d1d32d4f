import { describe, expect, it } from '@jest/globals';
import { parseConfig, secretValues } from '../../src/config/bot.js';
import { problemsOf, VALID_ENV } from '../support/config-env.js';

const SECRET = 'forward-secret-0123456789abcdef';

describe('FORWARD_URLS, FORWARD_SECRET and FORWARD_ALLOW_PRIVATE', () => {
  it('are off when unset: no destinations, private addresses refused', () => {
    expect(parseConfig(VALID_ENV).forward).toEqual({ urls: [], secret: undefined, allowPrivate: false });
  });

  it("read one server's destinations, and keep the secret out of every log line", () => {
    const config = parseConfig({
      ...VALID_ENV,
      FORWARD_URLS: ' https://a.example/votes , https://b.example/hook?k=1 ',
      FORWARD_SECRET: SECRET,
    });
    expect(config.forward.urls).toEqual(['https://a.example/votes', 'https://b.example/hook?k=1']);
    expect(secretValues(config)).toContain(SECRET);
  });

  it('refuse plain http unless FORWARD_ALLOW_PRIVATE=true', () => {
    const env = { ...VALID_ENV, FORWARD_URLS: 'http://127.0.0.1:8793/votes', FORWARD_SECRET: SECRET };
    expect(problemsOf(env).join('\n')).toMatch(/^FORWARD_URLS must be https:\/\/ URLs/m);
    expect(parseConfig({ ...env, FORWARD_ALLOW_PRIVATE: 'true' }).forward.allowPrivate).toBe(true);
  });

  it('refuse more than five, a URL with a password, and URLs without a long enough secret', () => {
    const six = Array.from({ length: 6 }, (_, i) => `https://d${i}.example/`).join(',');
    expect(problemsOf({ ...VALID_ENV, FORWARD_URLS: six, FORWARD_SECRET: SECRET })).toContain(
      'FORWARD_URLS has 6 URLs: at most 5',
    );
    expect(problemsOf({ ...VALID_ENV, FORWARD_URLS: 'https://u:p@a.example/', FORWARD_SECRET: SECRET }).join()).toMatch(
      /must not hold a user name or password/,
    );
    expect(problemsOf({ ...VALID_ENV, FORWARD_URLS: 'https://a.example/', FORWARD_SECRET: 'short' }).join()).toMatch(
      /FORWARD_SECRET is missing or shorter than 16 characters/,
    );
  });

  it('refuse FORWARD_URLS with many servers: each adds its own with /setup forward add', () => {
    const many = {
      ...VALID_ENV,
      DISCORD_GUILD_ID: '',
      SERVICE_API_KEY: '',
      SERVICE_APP_ID: '',
      SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
    };
    expect(problemsOf({ ...many, FORWARD_URLS: 'https://a.example/', FORWARD_SECRET: SECRET }).join()).toMatch(
      /FORWARD_URLS is for a single server.*\/setup forward add/,
    );
    expect(problemsOf({ ...VALID_ENV, FORWARD_ALLOW_PRIVATE: 'maybe' }).join()).toMatch(/FORWARD_ALLOW_PRIVATE/);
  });
});
