import { afterAll, describe, expect, it } from '@jest/globals';
import { startBot, type BotProcess } from '../../tools/bot-process.js';

/** The built bot as `npm start` runs it: configuration problems are found before anything is reached. */
let bot: BotProcess | undefined;
afterAll(async () => {
  await bot?.stop('SIGKILL');
});

describe('a start with several bad settings', () => {
  it('lists every one in one pass, each by name, and exits 78', async () => {
    bot = startBot({
      DISCORD_TOKEN: 'a-token-that-is-never-used',
      DISCORD_CLIENT_ID: '123456789012345678',
      DISCORD_GUILD_ID: '234567890123456789',
      SERVICE_BASE_URL: 'http://127.0.0.1:9/v1',
      SERVICE_API_KEY: 'an-api-key',
      SERVICE_APP_ID: 'an-app-id',
      SERVICE_TIMEOUT_MS: 'soon',
      LOG_FORMAT: 'xml',
      WEBHOOK_PORT: '8080',
      VOTE_POLL_SECONDS: '2.5',
    });
    expect(await bot.exited).toEqual({ code: 78, signal: null });
    const lines = bot.stderr().trim().split('\n');
    expect(lines[0]).toBe("The bot's configuration has 4 problems:");
    expect(lines.slice(1, 5).sort()).toEqual([
      expect.stringMatching(/^ {2}- LOG_FORMAT must be json .* or pretty/),
      '  - SERVICE_TIMEOUT_MS must be a whole number from 100 to 60000',
      '  - VOTE_POLL_SECONDS must be a whole number from 0 to 86400',
      expect.stringMatching(/^ {2}- WEBHOOK_TOKEN is missing: WEBHOOK_PORT is set/),
    ]);
    expect(bot.stderr()).not.toContain('a-token-that-is-never-used');
    expect(bot.logs).toEqual([]);
  });
});
