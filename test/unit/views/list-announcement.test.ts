import { describe, expect, it } from '@jest/globals';
import { english, translatorFor } from '../../../src/i18n/index.js';
import { voteAnnouncementView } from '../../../src/views/vote-announcement.js';
import { embedOf, MEMBER } from './view-json.js';

// The built-in announcement names the list of a vote cast elsewhere than Guilds (issue 34).
describe('the vote announcement of a vote on another list', () => {
  const line = (vote: { double: boolean; listName?: string }, locale = 'en-US') =>
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
});
