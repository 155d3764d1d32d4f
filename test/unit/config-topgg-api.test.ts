import { describe, expect, it } from '@jest/globals';
import { parseConfig, secretValues } from '../../src/config/bot.js';
import { environmentServer } from '../../src/servers/environment-server.js';
import { problemsOf, VALID_ENV } from '../support/config-env.js';

// Issue 51, item 3: Top.gg's API (TOPGG_API_URL) and one server's token (LISTING_TOPGG_API_TOKEN),
// with which the bot reads back the Top.gg votes missed while it was down.
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.project-token.signature';
const WITH_TOPGG = {
  ...VALID_ENV,
  WEBHOOK_PORT: '8090',
  WEBHOOK_TOKEN: 'guilds-token-0123456789',
  LISTING_TOPGG_SECRET: 'whs_0123456789abcdefghij',
};

describe("Top.gg's API settings", () => {
  it("reads Top.gg's own address by default, another without its trailing slash", () => {
    expect(parseConfig(WITH_TOPGG).topgg).toEqual({ apiUrl: 'https://top.gg/api', apiToken: undefined });
    expect(parseConfig({ ...WITH_TOPGG, TOPGG_API_URL: 'http://127.0.0.1:9000/' }).topgg.apiUrl).toBe(
      'http://127.0.0.1:9000',
    );
    expect(problemsOf({ ...WITH_TOPGG, TOPGG_API_URL: 'top.gg' })).toEqual([
      expect.stringMatching(/^TOPGG_API_URL must be an http\(s\) URL/),
    ]);
  });

  it("gives one server's token to its Top.gg listing and masks it in every log line", () => {
    const config = parseConfig({ ...WITH_TOPGG, LISTING_TOPGG_API_TOKEN: TOKEN });
    expect(environmentServer(config)?.topggApiToken).toBe(TOKEN);
    expect(secretValues(config)).toContain(TOKEN);
  });

  it('refuses a token of the wrong shape, or one without the listing it reads for, naming the fix', () => {
    expect(problemsOf({ ...WITH_TOPGG, LISTING_TOPGG_API_TOKEN: 'two words here and more' })).toEqual([
      expect.stringMatching(/^LISTING_TOPGG_API_TOKEN must be one word of 16 to 2048 characters: .*Integrations & API/),
    ]);
    expect(problemsOf({ ...WITH_TOPGG, LISTING_TOPGG_SECRET: '', LISTING_TOPGG_API_TOKEN: TOKEN })).toEqual([
      expect.stringMatching(/^LISTING_TOPGG_API_TOKEN is set without LISTING_TOPGG_SECRET/),
    ]);
  });

  it('is refused with many servers, where /setup listing add api-token: sets it', () => {
    const problems = problemsOf({
      ...VALID_ENV,
      DISCORD_GUILD_ID: '',
      SERVICE_API_KEY: '',
      SERVICE_APP_ID: '',
      SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
      LISTING_TOPGG_API_TOKEN: TOKEN,
    });
    expect(problems).toEqual([expect.stringMatching(/^LISTING_TOPGG_API_TOKEN is for a single server/)]);
  });
});
