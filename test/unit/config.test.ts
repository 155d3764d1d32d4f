import { describe, it, expect } from '@jest/globals';
import { type ConfigError } from '../../src/config/load.js';
import { parseConfig } from '../../src/config/bot.js';
import { problemsOf, VALID_ENV } from '../support/config-env.js';

const valid = VALID_ENV;

describe('parseConfig', () => {
  it('reads a minimal environment and fills in the defaults', () => {
    const config = parseConfig(valid);
    expect(config.discord).toEqual({
      token: valid.DISCORD_TOKEN,
      clientId: valid.DISCORD_CLIENT_ID,
      guildId: valid.DISCORD_GUILD_ID,
      apiUrl: undefined,
      restRequestsPerSecond: 200,
      shards: { count: 1, ids: undefined },
    });
    expect(config.service).toMatchObject({
      headerPrefix: 'Service',
      attemptTimeoutMs: 6000,
      totalBudgetMs: 12_000,
      cacheTtlMs: 30_000,
      notVotedTtlMs: 5_000,
      maxResponseBytes: 1024 * 1024,
    });
    expect(config.server.moderatorRoleIds).toEqual([]);
    expect(config.server.auditChannelId).toBeUndefined();
    expect(config.logLevel).toBe('info');
    expect(config.metricsPort).toBeUndefined();
  });

  it('returns a frozen object, nested parts included', () => {
    const config = parseConfig(valid);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.service)).toBe(true);
    expect(Object.isFrozen(config.server.moderatorRoleIds)).toBe(true);
  });

  it('reports every missing required variable at once, each with what to put there', () => {
    const problems = problemsOf({});
    // No DISCORD_GUILD_ID: the bot would serve every server it is in, and needs SECRETS_KEY for that.
    const names = ['DISCORD_TOKEN', 'DISCORD_CLIENT_ID', 'SERVICE_BASE_URL', 'SECRETS_KEY'];
    expect(problems).toHaveLength(names.length);
    for (const name of names) {
      const line = problems.find((p) => p.startsWith(`${name} `));
      expect(line).toMatch(/is missing: .{10,}/);
    }
  });

  it('splits moderator roles on commas and ignores blanks', () => {
    const config = parseConfig({ ...valid, MODERATOR_ROLE_IDS: ' 330000000000000003, ,440000000000000004 ' });
    expect(config.server.moderatorRoleIds).toEqual(['330000000000000003', '440000000000000004']);
  });

  it('refuses a moderator role list with a non-id in it', () => {
    expect(problemsOf({ ...valid, MODERATOR_ROLE_IDS: '330000000000000003,mods' })).toEqual([
      expect.stringMatching(/^MODERATOR_ROLE_IDS.* must be role ids/),
    ]);
  });

  it('treats empty optional lines from .env.example as unset', () => {
    const config = parseConfig({
      ...valid,
      DISCORD_API_URL: '',
      REVIEW_LOG_CHANNEL_ID: '',
      LOG_LEVEL: '',
      METRICS_PORT: '',
    });
    expect(config.discord.apiUrl).toBeUndefined();
    expect(config.server.auditChannelId).toBeUndefined();
    expect(config.logLevel).toBe('info');
  });

  it('refuses a plain-http service URL that is not loopback, and accepts loopback', () => {
    expect(problemsOf({ ...valid, SERVICE_BASE_URL: 'http://api.example.com/v1' })).toEqual([
      expect.stringMatching(/^SERVICE_BASE_URL .*https/i),
    ]);
    expect(parseConfig({ ...valid, SERVICE_BASE_URL: 'http://127.0.0.1:8787/v1' }).service.baseUrl).toBe(
      'http://127.0.0.1:8787/v1',
    );
  });

  it('refuses bad numbers, log levels and ids with the variable named', () => {
    const problems = problemsOf({
      ...valid,
      SERVICE_TIMEOUT_MS: 'soon',
      LOG_LEVEL: 'loud',
      DISCORD_GUILD_ID: '12',
      METRICS_PORT: '70000',
    });
    expect(problems.map((p) => p.split(' ')[0]).sort()).toEqual([
      'DISCORD_GUILD_ID',
      'LOG_LEVEL',
      'METRICS_PORT',
      'SERVICE_TIMEOUT_MS',
    ]);
  });

  it('never echoes a secret value in its problems', () => {
    const error = (() => {
      try {
        parseConfig({ ...valid, SERVICE_BASE_URL: 'ftp://nope', DISCORD_GUILD_ID: valid.DISCORD_TOKEN });
      } catch (e) {
        return e as ConfigError;
      }
      throw new Error('expected a ConfigError');
    })();
    expect(error.message).not.toContain(valid.DISCORD_TOKEN);
    expect(error.message).not.toContain(valid.SERVICE_API_KEY);
    expect(error.problems).toHaveLength(2);
  });

  it('binds /healthz and /metrics to loopback unless METRICS_HOST names another address', () => {
    expect(parseConfig(valid).metricsHost).toBe('127.0.0.1');
    expect(parseConfig({ ...valid, METRICS_HOST: '' }).metricsHost).toBe('127.0.0.1');
    expect(parseConfig({ ...valid, METRICS_HOST: ' 0.0.0.0 ' }).metricsHost).toBe('0.0.0.0');
    expect(parseConfig({ ...valid, METRICS_HOST: '::' }).metricsHost).toBe('::');
  });

  it('refuses a METRICS_HOST that is not an address, naming it', () => {
    expect(problemsOf({ ...valid, METRICS_HOST: 'prometheus.example.com' })).toEqual([
      expect.stringMatching(/^METRICS_HOST must be an IP address to listen on: 127\.0\.0\.1 .*0\.0\.0\.0/),
    ]);
  });

  it('serves /healthz alone on HEALTH_PORT when set (the image sets it), and refuses a port taken by another setting', () => {
    expect(parseConfig(valid).healthPort).toBeUndefined();
    expect(parseConfig({ ...valid, HEALTH_PORT: '' }).healthPort).toBeUndefined();
    expect(parseConfig({ ...valid, HEALTH_PORT: '9465', METRICS_PORT: '9464' }).healthPort).toBe(9465);
    expect(problemsOf({ ...valid, HEALTH_PORT: 'health' })).toEqual([
      expect.stringMatching(/^HEALTH_PORT must be a port from 1 to 65535/),
    ]);
    expect(problemsOf({ ...valid, HEALTH_PORT: '9464', METRICS_PORT: '9464' })).toEqual([
      'HEALTH_PORT must differ from METRICS_PORT (9464): /healthz alone gets a port of its own',
    ]);
    expect(
      problemsOf({ ...valid, HEALTH_PORT: '8080', WEBHOOK_PORT: '8080', WEBHOOK_TOKEN: 'a-token-of-sixteen-chars' }),
    ).toEqual(['HEALTH_PORT must differ from WEBHOOK_PORT (8080): /healthz alone gets a port of its own']);
  });

  it('marks configuration problems with exit code 78, so a supervisor stops restarting', () => {
    try {
      parseConfig({});
    } catch (error) {
      expect((error as ConfigError).exitCode).toBe(78);
      return;
    }
    throw new Error('expected a ConfigError');
  });

  it('takes the Guilds header prefix for the real service', () => {
    expect(parseConfig({ ...valid, SERVICE_HEADER_PREFIX: 'Guilds' }).service.headerPrefix).toBe('Guilds');
    expect(problemsOf({ ...valid, SERVICE_HEADER_PREFIX: 'Guilds-Api' })).toHaveLength(1);
  });

  it.each([
    ['https://api.guilds.me/v1', 'Guilds'],
    ['https://guilds.me/api/v1', 'Guilds'],
    ['https://API.Guilds.me./v1', 'Guilds'],
    ['https://notguilds.me/v1', 'Service'],
    ['https://guilds.me.example.com/v1', 'Service'],
    ['https://api.example.com/v1', 'Service'],
  ])('defaults the header prefix for %s to %s', (url, prefix) => {
    expect(parseConfig({ ...valid, SERVICE_BASE_URL: url }).service.headerPrefix).toBe(prefix);
  });

  it('keeps a header prefix that is set, whatever the host', () => {
    const config = parseConfig({
      ...valid,
      SERVICE_BASE_URL: 'https://api.guilds.me/v1',
      SERVICE_HEADER_PREFIX: 'Service',
    });
    expect(config.service.headerPrefix).toBe('Service');
  });

  it.each([
    'https://api.example.com',
    'https://api.example.com/',
    'https://api.example.com/v2',
    'https://api.example.com/v1/votes',
  ])('refuses the base URL %s, which does not end in /v1, naming the variable', (url) => {
    expect(problemsOf({ ...valid, SERVICE_BASE_URL: url })).toEqual([
      expect.stringMatching(/^SERVICE_BASE_URL .*must end in the API version segment \/v1/),
    ]);
  });

  it('reads SERVICE_MAX_RESPONSE_BYTES and refuses a value below 1 KiB, naming it', () => {
    expect(parseConfig({ ...valid, SERVICE_MAX_RESPONSE_BYTES: '65536' }).service.maxResponseBytes).toBe(65_536);
    expect(problemsOf({ ...valid, SERVICE_MAX_RESPONSE_BYTES: '10' })).toEqual([
      expect.stringMatching(/^SERVICE_MAX_RESPONSE_BYTES must be at least 1024/),
    ]);
  });
});

describe('parseConfig with empty lines', () => {
  it('reports an empty required variable as missing, like an absent one', () => {
    const problems = problemsOf({ ...valid, DISCORD_CLIENT_ID: '', SERVICE_API_KEY: '  ', SERVICE_BASE_URL: '' });
    expect(problems).toEqual([
      expect.stringMatching(/^DISCORD_CLIENT_ID is missing: /),
      expect.stringMatching(/^SERVICE_BASE_URL is missing: /),
      expect.stringMatching(/^SERVICE_API_KEY is missing: /),
    ]);
  });
});

describe('parseConfig for one server or many', () => {
  const KEY = Buffer.alloc(32, 7).toString('base64');
  const many = { ...VALID_ENV, DISCORD_GUILD_ID: '', SERVICE_API_KEY: '', SERVICE_APP_ID: '', SECRETS_KEY: KEY };

  it('serves one server from the environment when DISCORD_GUILD_ID is set, needing its credentials', () => {
    expect(parseConfig(VALID_ENV).discord.guildId).toBe(VALID_ENV.DISCORD_GUILD_ID);
    expect(problemsOf({ ...VALID_ENV, SERVICE_APP_ID: '' })).toEqual([
      expect.stringMatching(/^SERVICE_APP_ID is missing: /),
    ]);
  });

  it('serves every server without it, with SECRETS_KEY sealing their secrets', () => {
    const config = parseConfig(many);
    expect(config.discord.guildId).toBeUndefined();
    expect(config.service.apiKey).toBeUndefined();
    expect(config.secrets?.current.id).toMatch(/^[0-9a-f]{8}$/);
    expect(problemsOf({ ...many, SECRETS_KEY: '' })).toEqual([
      expect.stringMatching(/^SECRETS_KEY is missing: DISCORD_GUILD_ID is empty, so the bot serves every server/),
    ]);
  });

  it("refuses one server's settings when serving many, naming each and the way to set it per server", () => {
    const problems = problemsOf({
      ...many,
      SERVICE_API_KEY: 'key',
      REVIEW_CHANNEL_ID: '330000000000000003',
      MODERATOR_ROLE_IDS: '330000000000000004',
    });
    expect(problems).toEqual([
      expect.stringMatching(/^SERVICE_API_KEY is for a single server: .*\/setup/),
      expect.stringMatching(/^REVIEW_CHANNEL_ID is for a single server: .*\/setup/),
      expect.stringMatching(/^MODERATOR_ROLE_IDS is for a single server: .*\/setup role/),
    ]);
  });

  it('refuses a key that is not 32 bytes of base64 without echoing it, and a previous key alone', () => {
    const problems = problemsOf({ ...many, SECRETS_KEY: 'short-key-value' });
    expect(problems).toEqual([expect.stringMatching(/^SECRETS_KEY must be 32 random bytes in base64/)]);
    expect(problems.join('\n')).not.toContain('short-key-value');
    expect(problemsOf({ ...VALID_ENV, SECRETS_KEY_PREVIOUS: KEY })).toEqual([
      expect.stringMatching(/^SECRETS_KEY_PREVIOUS is set without SECRETS_KEY/),
    ]);
  });

  it('reports a problem of the mode in the same pass as the others', () => {
    const problems = problemsOf({ ...VALID_ENV, DISCORD_CLIENT_ID: '', SERVICE_API_KEY: '' });
    expect(problems).toEqual([
      expect.stringMatching(/^DISCORD_CLIENT_ID is missing: /),
      expect.stringMatching(/^SERVICE_API_KEY is missing: /),
    ]);
  });
});
