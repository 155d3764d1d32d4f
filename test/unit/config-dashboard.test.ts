import { describe, expect, it } from '@jest/globals';
import { parseConfig, secretValues } from '../../src/config/bot.js';
import { problemsOf, VALID_ENV } from '../support/config-env.js';

const KEY = Buffer.alloc(32, 7).toString('base64');
const OLD_KEY = Buffer.alloc(32, 9).toString('base64');
const DASHBOARD = {
  DASHBOARD_PORT: '8090',
  DASHBOARD_PUBLIC_URL: 'https://bot.example.com/',
  DISCORD_CLIENT_SECRET: 'client-secret-that-is-secret',
  SESSION_KEY: KEY,
};

describe('the dashboard settings', () => {
  it('are off without DASHBOARD_PORT', () => {
    expect(parseConfig(VALID_ENV).dashboard).toBeUndefined();
  });

  it('read the port, the address (127.0.0.1 by default), the public address without its last slash and the keys', () => {
    const { dashboard } = parseConfig({ ...VALID_ENV, ...DASHBOARD, SESSION_KEY_PREVIOUS: OLD_KEY });
    expect(dashboard).toMatchObject({
      port: 8090,
      host: '127.0.0.1',
      publicUrl: 'https://bot.example.com',
      authorizeUrl: 'https://discord.com/oauth2/authorize',
      secure: true,
    });
    expect(dashboard!.sessionKeys.map((key) => key.toString('base64'))).toEqual([KEY, OLD_KEY]);
  });

  it('keep the client secret and the keys out of logs', () => {
    const values = secretValues(parseConfig({ ...VALID_ENV, ...DASHBOARD }));
    expect(values).toEqual(expect.arrayContaining(['client-secret-that-is-secret', KEY]));
  });

  it.each([
    ['DASHBOARD_PUBLIC_URL', { DASHBOARD_PUBLIC_URL: '' }],
    ['DISCORD_CLIENT_SECRET', { DISCORD_CLIENT_SECRET: '' }],
    ['SESSION_KEY', { SESSION_KEY: '' }],
  ])('refuse DASHBOARD_PORT without %s, naming it and never echoing a secret', (name, change) => {
    const problems = problemsOf({ ...VALID_ENV, ...DASHBOARD, ...change });
    expect(problems).toEqual([expect.stringMatching(new RegExp(`^${name} is missing: DASHBOARD_PORT is set`))]);
    expect(problems.join('\n')).not.toContain('client-secret-that-is-secret');
    expect(problems.join('\n')).not.toContain(KEY);
  });

  it.each([
    ['SESSION_KEY', { SESSION_KEY: 'c2hvcnQ=' }, /^SESSION_KEY must be 32 random bytes in base64/],
    [
      'DASHBOARD_PUBLIC_URL',
      { DASHBOARD_PUBLIC_URL: 'bot.example.com' },
      /^DASHBOARD_PUBLIC_URL must be an http\(s\) URL/,
    ],
    ['DASHBOARD_PUBLIC_URL', { DASHBOARD_PUBLIC_URL: 'https://bot.example.com/?a=1' }, /^DASHBOARD_PUBLIC_URL must be/],
    ['DASHBOARD_HOST', { DASHBOARD_HOST: 'everywhere' }, /^DASHBOARD_HOST must be an IP address/],
    ['DASHBOARD_PORT', { DASHBOARD_PORT: '70000' }, /^DASHBOARD_PORT must be a port/],
    ['DASHBOARD_PORT', { METRICS_PORT: '8090' }, /^DASHBOARD_PORT must differ from METRICS_PORT/],
    [
      'SESSION_KEY_PREVIOUS',
      { SESSION_KEY: '', DASHBOARD_PORT: '', SESSION_KEY_PREVIOUS: OLD_KEY },
      /without SESSION_KEY/,
    ],
  ])('refuse a wrong %s with a line naming it', (_name, change, line) => {
    const problems = problemsOf({ ...VALID_ENV, ...DASHBOARD, ...change });
    expect(problems).toEqual([expect.stringMatching(line)]);
  });
});
