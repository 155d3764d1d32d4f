import { describe, expect, it } from '@jest/globals';
import { english, translatorFor } from '../../../src/i18n/index.js';
import { templatedLine, voteAnnouncementView } from '../../../src/views/vote-announcement.js';
import { embedOf, MEMBER } from './view-json.js';

// The built-in announcement names the list of a vote cast elsewhere than Guilds (issue 34).
describe('the vote announcement of a vote on another list', () => {
  const line = (vote: { double: boolean; listName?: string; recovered?: boolean }, locale = 'en-US') =>
    embedOf(
      voteAnnouncementView(
        [{ userId: MEMBER, ...vote }],
        { total: undefined, thisMonth: 1 },
        locale === 'en-US' ? english : translatorFor(locale),
      ),
    ).description;

  it('names the list, and says so of a double vote as a Guilds double vote does', () => {
    expect(line({ double: false, listName: 'Top.gg' })).toBe(`<@${MEMBER}> voted on Top.gg`);
    expect(line({ double: true, listName: 'Top.gg' })).toBe(`<@${MEMBER}> voted on Top.gg (double vote)`);
  });

  it('keeps the Guilds line as it was', () => {
    expect(line({ double: false })).toBe(`<@${MEMBER}> voted`);
    expect(line({ double: true })).toBe(`<@${MEMBER}> voted (double vote)`);
  });

  it("speaks the server's language", () => {
    expect(line({ double: true, listName: 'Discollab' }, 'de')).toBe(
      `<@${MEMBER}> hat auf Discollab abgestimmt (doppelte Stimme)`,
    );
    expect(line({ double: false, listName: 'Top.gg' }, 'fr')).toBe(`<@${MEMBER}> a voté sur Top.gg`);
  });

  it('ends the line of a vote read back after the bot was down with "(recovered)", in the embed and a template', () => {
    expect(line({ double: false, listName: 'Top.gg', recovered: true })).toBe(
      `<@${MEMBER}> voted on Top.gg (recovered)`,
    );
    expect(line({ double: true, listName: 'Top.gg', recovered: true }, 'de')).toBe(
      `<@${MEMBER}> hat auf Top.gg abgestimmt (doppelte Stimme) (nachgeholt)`,
    );
    const vote = { userId: MEMBER, double: false, listName: 'Top.gg', siteName: 'Top.gg', recovered: true };
    const templated = templatedLine(
      { ...vote, first: false, streak: 1, monthVotes: 1, totalVotes: 1 },
      { template: '{user} voted on {site}', firstVote: undefined, ping: false },
      'Server',
      english,
      undefined,
    );
    expect(templated.text).toBe(`<@${MEMBER}> voted on Top.gg (recovered)`);
  });
});
