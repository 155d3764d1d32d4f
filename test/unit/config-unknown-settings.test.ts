import { describe, expect, it } from '@jest/globals';
import { unknownSettings } from '../../src/config/unknown-settings.js';

describe('names in the settings file that are no setting', () => {
  it('are found, each with the setting within a few edits it likely meant', () => {
    expect(
      unknownSettings(['VOTE_CHANEL_ID', 'VOTE_CHANNEL_ID', 'REVIEW_CHANNLE_ID', 'DISCORD_TOKNE', 'LOG_LEVEL']),
    ).toEqual([
      { name: 'VOTE_CHANEL_ID', nearest: 'VOTE_CHANNEL_ID' },
      { name: 'REVIEW_CHANNLE_ID', nearest: 'REVIEW_CHANNEL_ID' },
      { name: 'DISCORD_TOKNE', nearest: 'DISCORD_TOKEN' },
    ]);
  });

  it('name no setting when none is close, or two are equally close', () => {
    expect(unknownSettings(['MY_OWN_THING'])).toEqual([{ name: 'MY_OWN_THING' }]);
    expect(unknownSettings(['A_X'], ['A_B', 'A_C'])).toEqual([{ name: 'A_X' }]);
    expect(unknownSettings(['PORTT'], ['PORT', 'HOST'])).toEqual([{ name: 'PORTT', nearest: 'PORT' }]);
  });

  it('leave alone what a .env holds for Node or the shell', () => {
    expect(unknownSettings(['NODE_ENV', 'NODE_OPTIONS', 'TZ', 'DOTENV_CONFIG_PATH'])).toEqual([]);
  });
});
