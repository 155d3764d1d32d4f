import { describe, expect, it } from '@jest/globals';
import { english, translatorFor } from '../../../src/i18n/index.js';
import { remindOffView, remindOnView, remindStatusView, type RemindState } from '../../../src/views/remind.js';
import { reminderMentionView, reminderView } from '../../../src/views/vote-reminder.js';
import { buttonsOf, embedOf, MEMBER, NOW, NOW_UNIX } from './view-json.js';

const state = (over: Partial<RemindState> = {}): RemindState => ({
  on: true,
  voteEndsAt: undefined,
  last: undefined,
  fallbackChannelId: undefined,
  ...over,
});

describe('/remind answers', () => {
  it('on: says when the reminder comes and where it goes when DMs are closed', () => {
    const text = embedOf(
      remindOnView(state({ voteEndsAt: NOW, fallbackChannelId: '223456789012345678' }), english),
    ).description;
    expect(text).toBe(
      [
        'When your vote runs out, you get a DM so you can vote again.',
        `Your vote runs out <t:${NOW_UNIX}:R>: the reminder comes then.`,
        'If your DMs are closed, you are mentioned in <#223456789012345678> instead.',
        'Turn reminders off with `/remind off`.',
      ].join('\n'),
    );
  });

  it('status: with no running vote known and no fallback channel, asks to keep DMs open', () => {
    const text = embedOf(remindStatusView(state(), english)).description!;
    expect(text).toContain('No running vote of yours is known.');
    expect(text).toContain('Keep direct messages from server members open');
  });

  it.each([
    ['dm', 'by DM.'],
    ['channel', 'as a mention in the reminder channel'],
    ['undelivered', 'not delivered: your DMs were closed.'],
    ['late', 'skipped'],
  ] as const)('status: tells how the last reminder went (%s)', (outcome, words) => {
    const last = { userId: MEMBER, endsAt: NOW.getTime() - 60_000, at: NOW.getTime(), outcome };
    expect(embedOf(remindStatusView(state({ last }), english)).description).toContain(words);
  });

  it('off: says whether anything changed, with the localized command to turn them back on', () => {
    const de = translatorFor('de');
    expect(embedOf(remindOffView(true, de)).description).toContain('`/erinnerung an`');
    expect(embedOf(remindOffView(false, english)).description).toContain('Reminders were not on; nothing changed.');
    expect(embedOf(remindStatusView(state({ on: false }), english)).title).toBe('Reminders are off');
  });
});

describe('the reminder', () => {
  it('escapes the server name and links the vote page only when it is an http(s) URL', () => {
    const view = reminderView('**Big** @everyone', 'https://guilds.example/vote', english);
    expect(embedOf(view).description).toContain('**\\*\\*Big\\*\\* @\u200beveryone**');
    expect(buttonsOf(view)).toMatchObject([{ url: 'https://guilds.example/vote', label: 'Vote now' }]);
    expect(buttonsOf(reminderView('Cozy', 'javascript:alert(1)', english))).toEqual([]);
    expect(buttonsOf(reminderView('Cozy', undefined, english))).toEqual([]);
  });

  it('in the fallback channel, names the member it is for', () => {
    expect(reminderMentionView(MEMBER, 'Cozy', undefined, english).content).toBe(
      `<@${MEMBER}>, you can vote again! (Your DMs are closed, so your reminder is here.)`,
    );
  });
});
