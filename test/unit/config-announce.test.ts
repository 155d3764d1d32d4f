import { describe, expect, it } from '@jest/globals';
import { parseConfig } from '../../src/config/bot.js';
import { environmentServer } from '../../src/servers/environment-server.js';
import { effectiveSettings } from '../../src/servers/server-settings.js';
import { problemsOf, VALID_ENV } from '../support/config-env.js';

describe('announcement and streak settings in .env (single-server mode)', () => {
  it('reads the templates, the ping choice and the grace window into the server settings', () => {
    const config = parseConfig({
      ...VALID_ENV,
      ANNOUNCE_TEMPLATE: ' {user} voted! {streak} in a row ',
      ANNOUNCE_FIRST_VOTE_TEMPLATE: 'Welcome, {user}!',
      ANNOUNCE_PING_VOTER: 'TRUE',
      ANNOUNCE_EVERY_LIST: 'false',
      STREAK_GRACE_HOURS: '24',
    });
    const server = environmentServer(config)!;
    const settings = effectiveSettings(server.guildId, {}, server.settings);
    expect(settings).toMatchObject({
      announceTemplate: '{user} voted! {streak} in a row',
      firstVoteTemplate: 'Welcome, {user}!',
      announcePing: true,
      announceEveryList: false,
      streakGraceMs: 24 * 3_600_000,
    });
  });

  it('leaves them to /setup when empty, with a 12 h grace window and no ping', () => {
    const config = parseConfig({ ...VALID_ENV, ANNOUNCE_TEMPLATE: '', STREAK_GRACE_HOURS: '' });
    const server = environmentServer(config)!;
    expect(effectiveSettings(server.guildId, { announceTemplate: 'from /setup' }, server.settings)).toMatchObject({
      announceTemplate: 'from /setup',
      firstVoteTemplate: undefined,
      announcePing: false,
      announceEveryList: true,
      streakGraceMs: 12 * 3_600_000,
    });
  });

  it('stops the start on a bad value, naming the variable and, for a template, the known placeholders', () => {
    const problems = problemsOf({
      ...VALID_ENV,
      ANNOUNCE_TEMPLATE: '{user} is number {rank}',
      ANNOUNCE_FIRST_VOTE_TEMPLATE: '\u200b{double}\u2060',
      ANNOUNCE_PING_VOTER: 'sometimes',
      ANNOUNCE_EVERY_LIST: 'daily',
      STREAK_GRACE_HOURS: '200',
    });
    expect(problems).toEqual([
      expect.stringMatching(/^ANNOUNCE_TEMPLATE names unknown placeholders \(\{rank\}\); the known ones are \{user\} /),
      expect.stringMatching(/^ANNOUNCE_FIRST_VOTE_TEMPLATE must show some visible text besides \{double\} \(invisible/),
      expect.stringMatching(/^ANNOUNCE_PING_VOTER must be true or false/),
      expect.stringMatching(/^ANNOUNCE_EVERY_LIST must be true or false/),
      expect.stringMatching(/^STREAK_GRACE_HOURS must be at most 168/),
    ]);
  });

  it('refuses them with many servers, where each server sets its own with /setup', () => {
    const problems = problemsOf({
      ...VALID_ENV,
      DISCORD_GUILD_ID: '',
      SERVICE_API_KEY: '',
      SERVICE_APP_ID: '',
      SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
      STREAK_GRACE_HOURS: '24',
    });
    expect(problems).toEqual([expect.stringMatching(/^STREAK_GRACE_HOURS is for a single server/)]);
  });
});
