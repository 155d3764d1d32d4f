import { describe, expect, it } from '@jest/globals';
import { checkTemplate, renderTemplate, TEMPLATE_MAX, worstCaseLength } from '../../../src/announce/template.js';
import { MESSAGE_CONTENT_MAX } from '../../../src/core/discord-limits.js';
import { english, translatorFor } from '../../../src/i18n/index.js';
import { packTemplatedAnnouncement, type TemplatedVote } from '../../../src/views/vote-announcement.js';

const VOTER = '284102390141648897';
const OTHER = '593031275438718986';
const ROLE = '700000000000000001';
const values = {
  userId: VOTER,
  name: 'Ada',
  monthVotes: 4,
  totalVotes: 1234,
  streak: 3,
  server: 'Cosy Corner',
  double: true,
};
const vote = (n: number, extra: Partial<TemplatedVote> = {}): TemplatedVote => ({
  userId: String(300000000000000000n + BigInt(n)),
  double: false,
  first: false,
  streak: 1,
  monthVotes: 1,
  totalVotes: 1,
  ...extra,
});

describe('checkTemplate', () => {
  it('refuses unknown placeholders, naming each once', () => {
    expect(checkTemplate('{user} voted {count} times, {count}! {rank}')).toEqual({
      ok: false,
      problem: 'unknown',
      unknown: ['count', 'rank'],
    });
  });

  it('accepts every known placeholder and trims the text', () => {
    const template = ' {user} {name} {votes_month} {votes_total} {streak} {server} {double} ';
    expect(checkTemplate(template)).toEqual({ ok: true, template: template.trim() });
  });

  it('refuses a template with nothing but {double}, which a single vote would render empty', () => {
    expect(checkTemplate('  {double} ')).toEqual({ ok: false, problem: 'empty' });
  });

  it('refuses a template that shows nothing: invisible characters, spaces, or {double} behind them', () => {
    for (const blank of [
      '\u200b\u2060\u202e',
      '\u200b{double}',
      '\u200e\ufeff \u00a0\u3000',
      '\u3164\u2800 {double} \u200d',
      '\u202a\u2066\u2069\u180e',
    ])
      expect(checkTemplate(blank)).toEqual({ ok: false, problem: 'empty' });
  });

  it('accepts a template with anything visible, invisible characters or not', () => {
    expect(checkTemplate('\u200b.{double}')).toMatchObject({ ok: true });
    expect(checkTemplate('\u200b{votes_total}')).toMatchObject({ ok: true });
    expect(checkTemplate('\u202e🎉')).toMatchObject({ ok: true });
  });

  it('refuses a template over the limit, or one whose longest rendering could not fit a message', () => {
    expect(checkTemplate('x'.repeat(TEMPLATE_MAX + 1))).toMatchObject({ ok: false, problem: 'tooLong' });
    const servers = '{server}'.repeat(12);
    expect(servers.length).toBeLessThan(TEMPLATE_MAX);
    expect(worstCaseLength(servers)).toBeGreaterThan(MESSAGE_CONTENT_MAX);
    expect(checkTemplate(servers)).toMatchObject({ ok: false, problem: 'tooLong' });
  });
});

describe('renderTemplate', () => {
  it('fills every placeholder in the language of the server', () => {
    const text = renderTemplate(
      '{user} ({name}) voted {double}: {votes_month} this month, {votes_total} in all, {streak} in a row on {server}',
      values,
      english,
    );
    expect(text).toBe(`<@${VOTER}> (Ada) voted (double vote): 4 this month, 1,234 in all, 3 in a row on Cosy Corner`);
    expect(renderTemplate('{votes_total} {double}', values, translatorFor('de'))).toBe('1.234 (doppelte Stimme)');
  });

  it('keeps the voter the only mention, whatever the admin typed or the names hold', () => {
    const text = renderTemplate(
      `{user} @everyone @here <@&${ROLE}> <@${OTHER}> <@!${OTHER}> @{server} @{name}`,
      { ...values, server: 'everyone', name: 'here' },
      english,
    );
    expect(text.startsWith(`<@${VOTER}> `)).toBe(true);
    expect(text.match(/<@!?&?\d+>/g)).toEqual([`<@${VOTER}>`]);
    expect(text).not.toMatch(/@(everyone|here)/);
    expect(text).toContain('@\u200beveryone');
  });

  it('escapes markdown in names but keeps the markdown the admin wrote', () => {
    expect(renderTemplate('**{name}** voted', { ...values, name: '*sneaky*' }, english)).toBe('**\\*sneaky\\*** voted');
  });
});

describe('packTemplatedAnnouncement', () => {
  const templates = { template: '{user} voted! {streak} in a row {double}', firstVote: 'Welcome, {user}!', ping: true };

  it('uses the first-vote template for a first vote and pings the voters it mentions, nobody else', () => {
    const { body, count } = packTemplatedAnnouncement(
      [vote(1, { first: true }), vote(2, { streak: 5, double: true })],
      templates,
      'Cosy',
      english,
    );
    expect(count).toBe(2);
    expect(body.content).toBe(`Welcome, <@${vote(1).userId}>!\n<@${vote(2).userId}> voted! 5 in a row (double vote)`);
    expect(body.allowed_mentions).toEqual({ parse: [], users: [vote(1).userId, vote(2).userId] });
  });

  it('pings nobody when the admin has not allowed it, or the template does not mention the voter', () => {
    expect(
      packTemplatedAnnouncement([vote(1)], { ...templates, ping: false }, '', english).body.allowed_mentions,
    ).toEqual({ parse: [], users: [] });
    const named = { template: '{name} voted', firstVote: undefined, ping: true };
    expect(packTemplatedAnnouncement([vote(1)], named, '', english, new Map([[vote(1).userId, 'Ada']])).body).toEqual({
      content: 'Ada voted',
      allowed_mentions: { parse: [], users: [] },
    });
  });

  it('splits a burst into messages within 2,000 characters and 100 pinged voters, each voter once, in order', () => {
    const long = { template: `{user} {server} ${'x'.repeat(150)}`, firstVote: undefined, ping: true };
    const burst = Array.from({ length: 250 }, (_, n) => vote(n));
    let rest = burst;
    const seen: string[] = [];
    let messages = 0;
    while (rest.length > 0) {
      const { body, count } = packTemplatedAnnouncement(rest, long, 'S'.repeat(100), english);
      expect(count).toBeGreaterThan(0);
      expect(body.content.length).toBeLessThanOrEqual(MESSAGE_CONTENT_MAX);
      expect(body.allowed_mentions.users.length).toBeLessThanOrEqual(100);
      expect(body.content.split('\n')).toHaveLength(count);
      seen.push(...body.allowed_mentions.users);
      rest = rest.slice(count);
      messages += 1;
    }
    expect(seen).toEqual(burst.map((v) => v.userId));
    expect(messages).toBeLessThan(burst.length / 5);
  });

  it('never posts an empty message: a stored template that shows nothing gives way to the built-in line', () => {
    for (const blank of ['\u200b{double}', '\u200b\u2060\u202e']) {
      const stored = { template: blank, firstVote: blank, ping: true };
      const { body, count } = packTemplatedAnnouncement([vote(1), vote(2, { first: true })], stored, '', english);
      expect(count).toBe(2);
      expect(body.content).toBe(`<@${vote(1).userId}> voted\n<@${vote(2).userId}> voted`);
      expect(body.allowed_mentions.users).toEqual([vote(1).userId, vote(2).userId]);
    }
    // A member's display name may be blank too (a Hangul filler): that line falls back, the others stay.
    const named = { template: '{name}', firstVote: undefined, ping: false };
    const names = new Map([[vote(1).userId, '\u3164']]);
    expect(packTemplatedAnnouncement([vote(1)], named, '', english, names).body.content).toBe(
      `<@${vote(1).userId}> voted`,
    );
  });

  it('announces with the built-in line when only a first-vote template is set', () => {
    const firstOnly = { template: undefined, firstVote: 'Welcome, {user}!', ping: false };
    expect(packTemplatedAnnouncement([vote(1)], firstOnly, '', english).body.content).toBe(
      `<@${vote(1).userId}> voted`,
    );
  });
});
