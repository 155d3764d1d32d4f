import { describe, expect, it } from '@jest/globals';
import type { VoteEntry, VoteList } from '../../../src/api/types.js';
import { CUSTOM_ID_MAX } from '../../../src/core/discord-limits.js';
import { orderByTimeLeft, parseVotesPage, votesView } from '../../../src/views/votes.js';
import { NOW, NOW_UNIX, buttonsOf, customIdOf, embedOf } from './view-json.js';
import { english } from '../../../src/i18n/index.js';

const MINUTE = 60_000;

/** Voter i (1-based) has i minutes left; ids are 18-digit snowflakes ending in i. */
function voter(i: number): VoteEntry {
  return { userId: String(100000000000000000n + BigInt(i)), remainingMs: i * MINUTE, viaDiscord: true };
}

function listOf(count: number): VoteList {
  // Reversed so the view, not the input order, puts the soonest first.
  const votes = Array.from({ length: count }, (_, i) => voter(i + 1)).reverse();
  return { totalVotes: 12345, monthlyVotes: 678, votes };
}

function voterLines(description: string | undefined): string[] {
  return (description ?? '').split('\n').slice(1);
}

describe('votesView totals', () => {
  const embed = embedOf(votesView({ i18n: english, list: listOf(3), page: 1, now: NOW }));

  it('shows all-time, monthly and active counts with thousands separators', () => {
    expect(embed.fields).toEqual([
      { name: 'All time', value: '12,345', inline: true },
      { name: 'This month', value: '678', inline: true },
      { name: 'Active now', value: '3', inline: true },
    ]);
  });
});

describe('votesView ordering and lines', () => {
  const view = votesView({ i18n: english, list: listOf(3), page: 1, now: NOW });
  const embed = embedOf(view);

  it('says the order and lists the soonest to run out first, one mention per line', () => {
    expect(embed.description).toBe(
      [
        '**Active voters**, soonest to run out first:',
        `1\\. <@${voter(1).userId}> · runs out <t:${NOW_UNIX + 60}:R>`,
        `2\\. <@${voter(2).userId}> · runs out <t:${NOW_UNIX + 120}:R>`,
        `3\\. <@${voter(3).userId}> · runs out <t:${NOW_UNIX + 180}:R>`,
      ].join('\n'),
    );
  });

  it('puts votes with no known time left last', () => {
    const unknown: VoteEntry = { userId: '100000000000000099', remainingMs: null, viaDiscord: false };
    const ordered = orderByTimeLeft([unknown, voter(2), voter(1)]);
    expect(ordered.map((v) => v.userId)).toEqual([voter(1).userId, voter(2).userId, unknown.userId]);
  });

  it('says "time left unknown" for such a vote', () => {
    const unknown: VoteEntry = { userId: '100000000000000099', remainingMs: null, viaDiscord: false };
    const only = embedOf(
      votesView({ i18n: english, list: { totalVotes: 1, monthlyVotes: 1, votes: [unknown] }, page: 1, now: NOW }),
    );
    expect(only.description).toContain('<@100000000000000099> · time left unknown');
  });

  it('has no buttons and says page 1 of 1 for a single page', () => {
    expect(view.components).toHaveLength(0);
    expect(embed.footer?.text).toBe('Page 1 of 1');
  });

  it('pings nobody', () => {
    expect(view.allowedMentions).toEqual({ parse: [] });
  });
});

describe('votesView paging', () => {
  it('shows 10 voters per page', () => {
    expect(
      voterLines(embedOf(votesView({ i18n: english, list: listOf(25), page: 1, now: NOW })).description),
    ).toHaveLength(10);
  });

  it('shows voters 11 to 20 on page 2, numbered on from page 1', () => {
    const lines = voterLines(embedOf(votesView({ i18n: english, list: listOf(25), page: 2, now: NOW })).description);
    expect(lines[0]).toBe(`11\\. <@${voter(11).userId}> · runs out <t:${NOW_UNIX + 11 * 60}:R>`);
    expect(lines[9]).toMatch(/^20\\\. <@100000000000000020>/);
    expect(lines).toHaveLength(10);
  });

  it('shows the remaining 5 voters on the last page', () => {
    const embed = embedOf(votesView({ i18n: english, list: listOf(25), page: 3, now: NOW }));
    expect(voterLines(embed.description)).toHaveLength(5);
    expect(embed.footer?.text).toBe('Page 3 of 3');
  });

  it('clamps a page past the end to the last page', () => {
    expect(embedOf(votesView({ i18n: english, list: listOf(25), page: 99, now: NOW })).footer?.text).toBe(
      'Page 3 of 3',
    );
  });

  it('clamps page 0, negative and non-integer pages to the first page', () => {
    for (const page of [0, -4, Number.NaN, 1.5]) {
      expect(embedOf(votesView({ i18n: english, list: listOf(25), page, now: NOW })).footer?.text).toBe('Page 1 of 3');
    }
  });

  it('points Previous and Next at the neighbouring pages in the middle, both enabled', () => {
    const buttons = buttonsOf(votesView({ i18n: english, list: listOf(25), page: 2, now: NOW }));
    expect(buttons.map((b) => ['label' in b ? b.label : undefined, customIdOf(b), b.disabled])).toEqual([
      ['Previous', 'votes-page:1', false],
      ['Next', 'votes-page:3', false],
    ]);
  });

  it('disables Previous on the first page', () => {
    const buttons = buttonsOf(votesView({ i18n: english, list: listOf(25), page: 1, now: NOW }));
    expect(buttons.map((b) => b.disabled)).toEqual([true, false]);
  });

  it('disables Next on the last page', () => {
    const buttons = buttonsOf(votesView({ i18n: english, list: listOf(25), page: 3, now: NOW }));
    expect(buttons.map((b) => b.disabled)).toEqual([false, true]);
  });

  it('gives Previous and Next different custom ids on both pages of a 2-page list', () => {
    for (const page of [1, 2]) {
      const ids = buttonsOf(votesView({ i18n: english, list: listOf(11), page, now: NOW })).map(customIdOf);
      expect(ids).toEqual(['votes-page:1', 'votes-page:2']);
    }
  });

  it('has one page and no buttons for exactly 10 voters', () => {
    const view = votesView({ i18n: english, list: listOf(10), page: 1, now: NOW });
    expect(view.components).toHaveLength(0);
    expect(embedOf(view).footer?.text).toBe('Page 1 of 1');
  });

  it('has two pages for 11 voters, the second holding one', () => {
    const embed = embedOf(votesView({ i18n: english, list: listOf(11), page: 2, now: NOW }));
    expect(embed.footer?.text).toBe('Page 2 of 2');
    expect(voterLines(embed.description)).toEqual([`11\\. <@${voter(11).userId}> · runs out <t:${NOW_UNIX + 660}:R>`]);
  });

  it('honours a custom page size', () => {
    const embed = embedOf(votesView({ i18n: english, list: listOf(7), page: 2, now: NOW, pageSize: 3 }));
    expect(voterLines(embed.description)).toHaveLength(3);
    expect(embed.footer?.text).toBe('Page 2 of 3');
  });

  it('keeps every custom id within 100 characters on a very long list', () => {
    const ids = buttonsOf(votesView({ i18n: english, list: listOf(100_000), page: 9_999, now: NOW })).map(customIdOf);
    for (const id of ids) expect(id!.length).toBeLessThanOrEqual(CUSTOM_ID_MAX);
  });
});

describe('votesView with no active votes', () => {
  const view = votesView({ i18n: english, list: { totalVotes: 5, monthlyVotes: 0, votes: [] }, page: 1, now: NOW });

  it('says so in a friendly line and keeps the totals', () => {
    const embed = embedOf(view);
    expect(embed.description).toBe('No active votes right now — be the first!');
    expect(embed.fields?.map((f) => f.value)).toEqual(['5', '0', '0']);
  });

  it('has no buttons', () => {
    expect(view.components).toHaveLength(0);
  });
});

describe('parseVotesPage', () => {
  it('accepts positive integers', () => {
    expect(parseVotesPage('1')).toBe(1);
    expect(parseVotesPage('42')).toBe(42);
    expect(parseVotesPage('10000')).toBe(10_000);
  });

  it.each(['', '0', '-1', '1.5', '1e3', ' 2', '2 ', '+2', '02', '0x10', 'abc', '10001', '99999999999999999999'])(
    'rejects %p',
    (arg) => {
      expect(parseVotesPage(arg)).toBeNull();
    },
  );
});

describe('votesView on a list the client has ordered', () => {
  it('cuts the page from the list as it stands, without copying and sorting all of it', () => {
    const votes = Array.from({ length: 50_000 }, (_, i) => voter(i + 1));
    // Copying the list (spread, Array.from, for…of) goes through its iterator; a page needs none of it.
    Object.defineProperty(votes, Symbol.iterator, {
      value: () => {
        throw new Error('the whole list was iterated');
      },
    });
    const lines = voterLines(
      embedOf(votesView({ list: { totalVotes: 1, monthlyVotes: 1, votes }, page: 3, now: NOW, i18n: english }))
        .description,
    );
    expect(lines[0]).toBe(`21\\. <@${voter(21).userId}> · runs out <t:${NOW_UNIX + 21 * 60}:R>`);
    expect(lines).toHaveLength(10);
  });
});
