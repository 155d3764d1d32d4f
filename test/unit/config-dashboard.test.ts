import { describe, expect, it } from '@jest/globals';
import { parseConfig, secretValues } from '../../src/config/bot.js';
import { dashboardConnectionCap } from '../../src/config/dashboard-limits.js';
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
    [
      'DASHBOARD_PUBLIC_URL',
      { DASHBOARD_PUBLIC_URL: 'https://example.com/dashboard/' },
      /^DASHBOARD_PUBLIC_URL has the path \/dashboard, but the dashboard answers at \/ of its own address: use https:\/\/example\.com /,
    ],
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

describe('the proxy the dashboard trusts, DASHBOARD_TRUSTED_PROXIES', () => {
  it('is this machine (loopback) when left out, so a proxy elsewhere cannot name the visitor', () => {
    expect(parseConfig({ ...VALID_ENV, ...DASHBOARD }).dashboard?.trustedProxies).toEqual(['127.0.0.0/8', '::1']);
  });

  it('reads addresses and ranges separated by commas', () => {
    const env = { ...VALID_ENV, ...DASHBOARD, DASHBOARD_TRUSTED_PROXIES: ' 10.0.0.5 , fd00::/8,192.168.1.0/24' };
    expect(parseConfig(env).dashboard?.trustedProxies).toEqual(['10.0.0.5', 'fd00::/8', '192.168.1.0/24']);
  });

  it.each(['proxy.example', '10.0.0.0/0', '::/0', '10.0.0.0/33', '10.0.0.1/8/8', 'fe80::1%eth0'])(
    'refuses %s, naming the item and saying what belongs there',
    (item) => {
      const problems = problemsOf({ ...VALID_ENV, ...DASHBOARD, DASHBOARD_TRUSTED_PROXIES: `127.0.0.1,${item}` });
      expect(problems).toEqual([expect.stringMatching(/^DASHBOARD_TRUSTED_PROXIES\.1 must be the reverse proxy's/)]);
    },
  );
});

describe('the connections the dashboard keeps', () => {
  it('are DASHBOARD_MAX_CONNECTIONS when set, and left to the start (undefined) when not', () => {
    expect(parseConfig({ ...VALID_ENV, ...DASHBOARD }).dashboard?.maxConnections).toBeUndefined();
    const set = { ...VALID_ENV, ...DASHBOARD, DASHBOARD_MAX_CONNECTIONS: '300' };
    expect(parseConfig(set).dashboard?.maxConnections).toBe(300);
    expect(problemsOf({ ...set, DASHBOARD_MAX_CONNECTIONS: '0' })).toEqual([
      expect.stringMatching(/^DASHBOARD_MAX_CONNECTIONS must be at least 1/),
    ]);
  });

  it.each([
    [undefined, 1_024, { maxConnections: 256 }],
    [undefined, undefined, { maxConnections: 256 }],
    [undefined, 20_000, { maxConnections: 1_024 }],
    [3_000, 20_000, { maxConnections: 3_000 }],
    [100, 1_024, { maxConnections: 100 }],
    [5_000, 1_024, { maxConnections: 256, loweredFrom: 5_000 }],
    [undefined, 2, { maxConnections: 1 }],
  ])('with the setting %p and an open-file limit of %p: %p', (setting, openFiles, cap) => {
    expect(dashboardConnectionCap(setting, openFiles)).toEqual(cap);
  });
});
