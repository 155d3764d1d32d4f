import { describe, expect, it } from '@jest/globals';
import { ButtonStyle } from 'discord-api-types/v10';
import { voteView } from '../../../src/views/vote.js';
import { MEMBER, NOW, NOW_UNIX, buttonsOf, embedOf, embedText } from './view-json.js';
import { english } from '../../../src/i18n/index.js';

const NINE_H_58 = (9 * 60 + 58) * 60_000;

describe('voteView for a member who voted', () => {
  const view = voteView({
    i18n: english,
    userId: MEMBER,
    self: true,
    status: { voted: true, remainingMs: NINE_H_58 },
    now: NOW,
  });
  const embed = embedOf(view);
  const runsOut = NOW_UNIX + NINE_H_58 / 1000;

  it('names the member as a mention', () => {
    expect(embed.description).toContain(`<@${MEMBER}>`);
  });

  it('gives the run-out time as a relative timestamp computed from now plus the time left', () => {
    expect(embed.fields).toContainEqual({ name: 'Runs out', value: `<t:${runsOut}:R>`, inline: true });
  });

  it('gives the exact run-out time too', () => {
    expect(embed.fields).toContainEqual({ name: 'Exact time', value: `<t:${runsOut}:f>`, inline: true });
  });

  it('says the time left in words', () => {
    expect(embed.fields).toContainEqual({ name: 'Time left', value: '9 h 58 min', inline: true });
  });

  it('pings nobody and has no buttons', () => {
    expect(view.allowedMentions).toEqual({ parse: [] });
    expect(view.components).toHaveLength(0);
  });
});

describe('voteView for a vote with no known time left', () => {
  const embed = embedOf(
    voteView({ i18n: english, userId: MEMBER, self: true, status: { voted: true, remainingMs: null }, now: NOW }),
  );

  it('says the member has an active vote and that the run-out time is unknown', () => {
    expect(embed.description).toBe(`<@${MEMBER}> has an active vote. The service did not say when it runs out.`);
  });

  it('shows no timestamp it cannot know', () => {
    expect(embedText(embed)).not.toContain('<t:');
  });
});

describe('voteView for a member who has not voted', () => {
  const notVoted = { voted: false, remainingMs: null };

  it('says how to vote and offers a "Vote now" link button when a vote URL is given', () => {
    const view = voteView({
      i18n: english,
      userId: MEMBER,
      self: true,
      status: notVoted,
      now: NOW,
      voteUrl: 'https://guilds.example/g/1/vote',
    });
    expect(embedOf(view).description).toContain('Use the button below to vote');
    expect(buttonsOf(view)).toEqual([
      { type: 2, style: ButtonStyle.Link, label: 'Vote now', url: 'https://guilds.example/g/1/vote' },
    ]);
  });

  it('says how to vote without a button when no vote URL is given', () => {
    const view = voteView({ i18n: english, userId: MEMBER, self: true, status: notVoted, now: NOW });
    expect(embedOf(view).description).toBe(
      `<@${MEMBER}> has no active vote right now.\nVote for the server on its listing page, then check again here.`,
    );
    expect(view.components).toHaveLength(0);
  });

  it('leaves the button out rather than sending a URL Discord would reject', () => {
    const view = voteView({
      i18n: english,
      userId: MEMBER,
      self: true,
      status: notVoted,
      now: NOW,
      voteUrl: 'javascript:alert(1)',
    });
    expect(view.components).toHaveLength(0);
  });
});

describe('voteView about another member', () => {
  const OTHER = '412958623017041920';
  it('speaks about them, not to the caller, when they have voted', () => {
    const description = voteView({
      i18n: english,
      userId: OTHER,
      self: false,
      status: { voted: true, remainingMs: 60_000 },
      now: NOW,
    }).embeds[0]!.toJSON().description;
    expect(description).toBe(`<@${OTHER}> has voted.`);
  });

  it('says they can vote, without telling the caller to, when they have not', () => {
    const description = voteView({
      i18n: english,
      userId: OTHER,
      self: false,
      status: { voted: false, remainingMs: null },
      now: NOW,
    }).embeds[0]!.toJSON().description;
    expect(description).toContain(`<@${OTHER}> has no active vote right now.`);
    expect(description).toContain('They can vote any time');
    expect(description).not.toMatch(/check again/);
  });
});

describe('voteView for a server on other lists too', () => {
  const HOUR = 3_600_000;
  const lists = [
    {
      name: 'Top.gg',
      running: { votedAt: new Date(NOW.getTime() - HOUR), endsAt: new Date(NOW.getTime() + 11 * HOUR) },
      votePage: `https://top.gg/discord/servers/${MEMBER}/vote`,
    },
    { name: 'discord.place' },
  ];
  const view = voteView({
    i18n: english,
    userId: MEMBER,
    self: true,
    status: { voted: true, remainingMs: NINE_H_58 },
    now: NOW,
    lists,
  });

  it('has a line per list: Guilds from the service, then each list from the ledger', () => {
    const field = embedOf(view).fields!.find((f) => f.name === 'Each list')!;
    expect(field.value.split('\n')).toEqual([
      `**Guilds**: vote again <t:${NOW_UNIX + NINE_H_58 / 1000}:R>`,
      `**Top.gg**: voted <t:${NOW_UNIX - 3600}:R>, vote again <t:${NOW_UNIX + 11 * 3600}:R>`,
      '**discord.place**: can vote now',
    ]);
  });

  it("has a link button to each list's vote page the site's documentation gives, and none for the others", () => {
    expect(buttonsOf(view)).toEqual([
      {
        type: 2,
        style: ButtonStyle.Link,
        label: 'Vote on Top.gg',
        url: `https://top.gg/discord/servers/${MEMBER}/vote`,
      },
    ]);
  });

  it('says Guilds can be voted on now when the service has no vote, beside the Vote now button', () => {
    const none = voteView({
      i18n: english,
      userId: MEMBER,
      self: true,
      status: { voted: false, remainingMs: null },
      now: NOW,
      voteUrl: 'https://guilds.me/server/1',
      lists,
    });
    expect(embedText(embedOf(none))).toContain('**Guilds**: can vote now');
    expect(buttonsOf(none).map((b) => ('label' in b ? b.label : undefined))).toEqual(['Vote now', 'Vote on Top.gg']);
  });
});
