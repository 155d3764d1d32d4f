import { describe, expect, it } from '@jest/globals';
import { parseConfig } from '../../src/config/bot.js';
import { environmentServer } from '../../src/servers/environment-server.js';
import { problemsOf, VALID_ENV } from '../support/config-env.js';

// LISTING_<SITE>_VOTE_HOURS: one server's vote length on a list whose deliveries do not say it.
const WITH_WEBHOOK = {
  ...VALID_ENV,
  WEBHOOK_PORT: '8090',
  WEBHOOK_TOKEN: 'guilds-token-0123456789',
  LISTING_DISCORDPLACE_SECRET: 'dp-secret-0123456789',
};

describe("a list's vote length in .env (single-server mode)", () => {
  it('is read in hours for the lists whose deliveries do not say; empty: the site default', () => {
    const config = parseConfig({
      ...WITH_WEBHOOK,
      LISTING_DISCORDPLACE_VOTE_HOURS: '12',
      LISTING_DISCADIA_VOTE_HOURS: '',
      LISTING_DISCORDLISTSPACE_VOTE_HOURS: '168',
    });
    expect(config.webhook?.listingVoteHours).toEqual({ discordplace: 12, discordlistspace: 168 });
    expect(environmentServer(config)?.listingVoteHours).toEqual({ discordplace: 12, discordlistspace: 168 });
  });

  it('stops the start on hours that are not 1 to 168, naming the variable and the list', () => {
    expect(
      problemsOf({ ...WITH_WEBHOOK, LISTING_DISCORDPLACE_VOTE_HOURS: '0', LISTING_DISCADIA_VOTE_HOURS: 'a day' }),
    ).toEqual([
      'LISTING_DISCORDPLACE_VOTE_HOURS must be a whole number of hours from 1 to 168: how long a vote on discord.place runs (empty: 24)',
      expect.stringMatching(/^LISTING_DISCADIA_VOTE_HOURS must be a whole number of hours from 1 to 168: .*Discadia/),
    ]);
  });

  it('is refused with many servers, where /setup listing add vote-hours: sets it', () => {
    const problems = problemsOf({
      ...VALID_ENV,
      DISCORD_GUILD_ID: '',
      SERVICE_API_KEY: '',
      SERVICE_APP_ID: '',
      SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
      LISTING_DISCADIA_VOTE_HOURS: '6',
    });
    expect(problems).toEqual([expect.stringMatching(/^LISTING_DISCADIA_VOTE_HOURS is for a single server/)]);
  });
});
