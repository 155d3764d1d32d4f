import { describe, expect, it } from '@jest/globals';
import { checkTemplate, GUILDS_NAME, PLACEHOLDERS, renderTemplate } from '../../../src/announce/template.js';
import { english, translatorFor } from '../../../src/i18n/index.js';
import { SITE_FACTS } from '../../../src/lists/index.js';
import { packTemplatedAnnouncement, type TemplatedVote } from '../../../src/views/vote-announcement.js';

// Templates over every list (issue 34): {site} names the list of the vote, {sites_today} counts
// the lists the member voted on in the last 24 hours.

const VOTER = '284102390141648897';
const values = {
  userId: VOTER,
  name: 'Ada',
  monthVotes: 4,
  totalVotes: 9,
  streak: 3,
  server: 'Cosy Corner',
  double: false,
};
const vote = (extra: Partial<TemplatedVote> = {}): TemplatedVote => ({
  userId: VOTER,
  double: false,
  first: false,
  streak: 1,
  monthVotes: 1,
  totalVotes: 1,
  ...extra,
});

describe('{site} and {sites_today}', () => {
  it('are known placeholders, listed after the others', () => {
    expect(PLACEHOLDERS.slice(-2)).toEqual(['site', 'sites_today']);
    const template = '{user} voted on {site}: {sites_today} lists today';
    expect(checkTemplate(template)).toEqual({ ok: true, template });
  });

  it("fill in the list's name and the number of lists, in the server's language", () => {
    const template = '{user} voted on {site}, {sites_today} lists today';
    expect(renderTemplate(template, { ...values, siteName: 'Top.gg', listsToday: 3 }, english)).toBe(
      `<@${VOTER}> voted on Top.gg, 3 lists today`,
    );
    expect(
      renderTemplate('{sites_today}', { ...values, siteName: 'Top.gg', listsToday: 1_000 }, translatorFor('de')),
    ).toBe('1.000');
  });

  it('read Guilds and 1 for a vote that names no list, and Guilds as src/lists names it', () => {
    expect(renderTemplate('{site} {sites_today}', values, english)).toBe('Guilds 1');
    expect(GUILDS_NAME).toBe(SITE_FACTS.guilds.name);
  });

  it('are counted at their longest when a template is checked against a message', () => {
    const many = '{site}'.repeat(50);
    expect(checkTemplate(many)).toEqual({ ok: false, problem: 'tooLong', max: 500 });
  });

  it('make a template of {site} alone one that shows something', () => {
    expect(checkTemplate('{site}')).toEqual({ ok: true, template: '{site}' });
  });
});

describe('the built-in line with only a first-vote template set', () => {
  const firstOnly = { template: undefined, firstVote: 'Welcome, {user}!', ping: false };

  it('names the list of a vote on another list, as the built-in embed does', () => {
    const other = vote({ listName: 'Top.gg', siteName: 'Top.gg', double: true });
    expect(packTemplatedAnnouncement([other], firstOnly, '', english).body.content).toBe(
      `<@${VOTER}> voted on Top.gg (double vote)`,
    );
  });

  it('keeps the Guilds line', () => {
    expect(packTemplatedAnnouncement([vote({ siteName: 'Guilds' })], firstOnly, '', english).body.content).toBe(
      `<@${VOTER}> voted`,
    );
  });
});
