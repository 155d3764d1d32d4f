import { describe, expect, it } from '@jest/globals';
import { parseConfig } from '../../src/config/bot.js';
import { problemsOf, VALID_ENV } from '../support/config-env.js';

const valid = VALID_ENV;

describe('the real-time settings', () => {
  it('default to a SQLite file, no receiver, no feeds and a poll every minute', () => {
    const config = parseConfig(valid);
    expect(config.database).toEqual({ kind: 'sqlite', file: './data/bot.sqlite' });
    expect(config.webhook).toBeUndefined();
    expect(config.server.reviewChannelId).toBeUndefined();
    expect(config.server.voteChannelId).toBeUndefined();
    expect(config.votePollMs).toBe(60_000);
  });

  it('read a PostgreSQL URL, the receiver, the channels and the poll interval', () => {
    const config = parseConfig({
      ...valid,
      DATABASE_URL: 'postgres://bot:pw@db.internal:5432/bot',
      WEBHOOK_PORT: '8080',
      WEBHOOK_HOST: '127.0.0.1',
      WEBHOOK_PATH: '/guilds/hook',
      WEBHOOK_TOKEN: 'a-long-shared-token-value',
      WEBHOOK_MAX_CONNECTIONS: '2000',
      REVIEW_CHANNEL_ID: '330000000000000003',
      VOTE_CHANNEL_ID: '440000000000000004',
      VOTE_POLL_SECONDS: '0',
    });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://bot:pw@db.internal:5432/bot' });
    expect(config.webhook).toEqual({
      port: 8080,
      host: '127.0.0.1',
      path: '/guilds/hook',
      token: 'a-long-shared-token-value',
      maxConnections: 2000,
      listingSecrets: {},
      listingVoteHours: {},
      publicUrl: undefined,
    });
    expect(config.server.reviewChannelId).toBe('330000000000000003');
    expect(config.server.voteChannelId).toBe('440000000000000004');
    expect(config.votePollMs).toBe(0);
  });

  it('take /webhook as the default path and keep at most 512 connections', () => {
    const webhook = parseConfig({ ...valid, WEBHOOK_PORT: '8080', WEBHOOK_TOKEN: 'a-long-shared-token-value' }).webhook;
    expect(webhook?.path).toBe('/webhook');
    expect(webhook?.maxConnections).toBe(512);
  });

  it('stop the bot with a message naming each bad value', () => {
    const problems = problemsOf({
      ...valid,
      DATABASE_URL: 'mysql://db/bot',
      WEBHOOK_PORT: '70000',
      WEBHOOK_PATH: 'webhook',
      WEBHOOK_MAX_CONNECTIONS: '0',
      REVIEW_CHANNEL_ID: '#reviews',
      VOTE_POLL_SECONDS: '-5',
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^DATABASE_URL must start with file: \(SQLite\) or postgres:\/\//),
        expect.stringMatching(/^WEBHOOK_PORT must be a port/),
        expect.stringMatching(/^WEBHOOK_PATH must be a path starting with \//),
        expect.stringMatching(/^WEBHOOK_MAX_CONNECTIONS must be at least 1/),
        expect.stringMatching(/^REVIEW_CHANNEL_ID must be a Discord id/),
        expect.stringMatching(/^VOTE_POLL_SECONDS must be at least 0/),
      ]),
    );
  });

  it('require the token once a port is set, and never echo it', () => {
    expect(problemsOf({ ...valid, WEBHOOK_PORT: '8080' })).toEqual([
      expect.stringMatching(/^WEBHOOK_TOKEN is missing: WEBHOOK_PORT is set/),
    ]);
    const short = problemsOf({ ...valid, WEBHOOK_PORT: '8080', WEBHOOK_TOKEN: 'short-secret' });
    expect(short).toEqual([expect.stringMatching(/^WEBHOOK_TOKEN must be at least 16 characters/)]);
    expect(short.join('\n')).not.toContain('short-secret');
  });
});

describe('VOTER_ROLE_ID', () => {
  it('is off when empty and read as a role id when set', () => {
    expect(parseConfig(valid).server.voterRoleId).toBeUndefined();
    expect(parseConfig({ ...valid, VOTER_ROLE_ID: ' ' }).server.voterRoleId).toBeUndefined();
    expect(parseConfig({ ...valid, VOTER_ROLE_ID: '550000000000000005' }).server.voterRoleId).toBe(
      '550000000000000005',
    );
  });

  it('stops the bot with a message naming it when it is not a role id', () => {
    const problems = problemsOf({ ...valid, VOTER_ROLE_ID: '@Voter' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('VOTER_ROLE_ID');
    expect(problems[0]).toContain('Copy Role ID');
  });
});

describe('REMINDER_CHANNEL_ID and EXPIRY_CHECK_SECONDS', () => {
  it('default to no fallback channel and a check every 5 minutes', () => {
    const config = parseConfig(valid);
    expect(config.server.reminderChannelId).toBeUndefined();
    expect(config.expiryCheckMs).toBe(300_000);
    const set = parseConfig({ ...valid, REMINDER_CHANNEL_ID: '660000000000000006', EXPIRY_CHECK_SECONDS: '30' });
    expect(set.server.reminderChannelId).toBe('660000000000000006');
    expect(set.expiryCheckMs).toBe(30_000);
  });

  it('stop the bot with a message naming each when it is wrong', () => {
    const problems = problemsOf({ ...valid, REMINDER_CHANNEL_ID: '#reminders', EXPIRY_CHECK_SECONDS: '0' });
    expect(problems).toHaveLength(2);
    expect(problems.find((p) => p.includes('REMINDER_CHANNEL_ID'))).toContain('closed DMs');
    expect(problems.some((p) => p.includes('EXPIRY_CHECK_SECONDS'))).toBe(true);
  });
});

describe('commands over HTTP (INTERACTIONS_PORT, INTERACTIONS_HOST, DISCORD_PUBLIC_KEY)', () => {
  const KEY = 'A1'.repeat(32);

  it('are off by default, and read as the endpoint with the key in lower case when set', () => {
    expect(parseConfig(valid).interactions).toBeUndefined();
    const config = parseConfig({
      ...valid,
      INTERACTIONS_PORT: '8090',
      INTERACTIONS_HOST: '127.0.0.1',
      DISCORD_PUBLIC_KEY: KEY,
    });
    expect(config.interactions).toEqual({ port: 8090, host: '127.0.0.1', publicKey: 'a1'.repeat(32) });
  });

  it('need the public key once a port is set, saying where the Developer Portal shows it', () => {
    expect(problemsOf({ ...valid, INTERACTIONS_PORT: '8090' })).toEqual([
      expect.stringMatching(
        /^DISCORD_PUBLIC_KEY is missing: INTERACTIONS_PORT is set.*General Information → Public Key/,
      ),
    ]);
  });

  it('refuse a key that is not 64 hex characters, and a port another server has', () => {
    expect(problemsOf({ ...valid, INTERACTIONS_PORT: '8090', DISCORD_PUBLIC_KEY: 'abc123' })).toEqual([
      expect.stringMatching(/^DISCORD_PUBLIC_KEY must be 64 hex characters: .*Public Key/),
    ]);
    expect(problemsOf({ ...valid, INTERACTIONS_PORT: '9464', METRICS_PORT: '9464', DISCORD_PUBLIC_KEY: KEY })).toEqual([
      expect.stringMatching(/^INTERACTIONS_PORT must differ from METRICS_PORT \(9464\)/),
    ]);
  });
});
