import { describe, expect, it } from '@jest/globals';
import {
  ANNOUNCE_FIELDS,
  announcementPreview,
  announcementsPage,
  PREVIEW_ID,
} from '../../../../src/dashboard/pages/announcements.js';
import { PREVIEW_SCRIPT } from '../../../../src/dashboard/pages/preview-script.js';
import { translatorFor } from '../../../../src/i18n/index.js';
import { exampleAnnouncements } from '../../../../src/setup/announce-preview.js';
import { expectEveryFormGuarded, flat, HOSTILE, HOSTILE_ESCAPED } from '../../../support/html-forms.js';

const GUILD = '100000000000000003';
const CSRF = 'csrf-token-789';
const i18n = translatorFor('en-US');
const voter = { server: 'Cafe', userId: '200000000000000001', name: 'Ada' };

describe('the announcement preview', () => {
  it('words the example vote as the bot and /setup announce preview: do (the e2e test holds /setup to this line)', () => {
    const text = announcementPreview(
      { template: 'PREVIEW ONLY {user} · {streak} in a row', firstVote: '', ping: false },
      voter,
      i18n,
    );
    // test/e2e/announce-streaks.test.ts expects this very line from `/setup announce preview:True`.
    expect(text).toContain(`PREVIEW ONLY <@${voter.userId}> · 3 in a row`);
  });

  it('shows the lines of the function /setup announce previews with, for the vote and the first vote', () => {
    const templates = { template: '{name} voted on {server}', firstVote: 'Welcome {user}!', ping: true };
    const example = exampleAnnouncements(templates, voter, i18n);
    const text = announcementPreview(templates, voter, i18n);
    expect(text.split('\n')).toEqual([
      'A vote',
      example.vote,
      "A member's first vote",
      example.first,
      '',
      'Pings: only the voter.',
    ]);
    expect(example.vote).toBe('Ada voted on Cafe');
    expect(example.first).toBe(`Welcome <@${voter.userId}>!`);
  });

  it('says the built-in line shows when both templates are blank', () => {
    const text = announcementPreview({ template: '  ', firstVote: '', ping: false }, voter, i18n);
    expect(text.split('\n')[0]).toBe(i18n.t('setup.announce.builtIn'));
    expect(text).toContain('Pings: nobody');
  });

  it('refuses an unknown placeholder in the words /setup uses, and changes nothing', () => {
    const text = announcementPreview({ template: 'Hi {nobody}', firstVote: '', ping: false }, voter, i18n);
    expect(text).toContain(i18n.t('refusal.templateUnknown.title'));
    expect(text).toContain('`{nobody}`');
  });
});

describe('the announcements page', () => {
  const preview = announcementPreview({ template: `${HOSTILE} {user}`, firstVote: '', ping: true }, voter, i18n);
  const page = flat(
    announcementsPage({
      guildId: GUILD,
      csrf: CSRF,
      draft: { template: `${HOSTILE} {user}`, firstVote: '', ping: true },
      everyList: false,
      preview,
      i18n,
    }).text,
  );

  it('puts the template in the editor and the preview, escaped both times', () => {
    expect(page).toContain(
      `name="${ANNOUNCE_FIELDS.template}" rows="3" maxlength="500">${HOSTILE_ESCAPED} {user}</textarea>`,
    );
    // The preview is the text the bot would post (which breaks up markup-looking text), then escaped.
    expect(page).toMatch(
      /aria-live="polite">A vote &lt;script&gt;alert\(1\)&lt;\u200b?\/script&gt; &lt;@200000000000000001&gt;/,
    );
    expect(page).not.toContain(HOSTILE);
  });

  it('ticks ping and leaves every-list unticked, as the settings are', () => {
    expect(page).toContain(`name="${ANNOUNCE_FIELDS.ping}" value="on" checked`);
    expect(page).not.toContain(`name="${ANNOUNCE_FIELDS.everyList}" value="on" checked`);
  });

  it('posts to the announcements page with its CSRF token, and previews without JavaScript by a button', () => {
    expect(expectEveryFormGuarded(page, GUILD, CSRF)).toBe(1);
    expect(page).toContain(`action="/servers/${GUILD}/announcements"`);
    expect(page).toContain(`formaction="/servers/${GUILD}/announcements/preview"`);
  });

  it('loads the live preview as a script file, none inline, and marks the block it fills', () => {
    expect(page).toMatch(/<script src="\/static\/[\w-]+\.js" defer><\/script>/);
    expect(page).not.toMatch(/<script>|<script [^s]/);
    expect(page).toContain(`<pre id="${PREVIEW_ID}"`);
    expect(page).toContain(`data-preview-url="/servers/${GUILD}/announcements/preview"`);
    expect(page).not.toMatch(/ style=| on[a-z]+=/);
  });
});

describe('the live preview script', () => {
  it('parses, fills the preview block, and posts the whole form (its CSRF field included)', () => {
    expect(() => new Function(PREVIEW_SCRIPT)).not.toThrow();
    expect(PREVIEW_SCRIPT).toContain(JSON.stringify(PREVIEW_ID));
    expect(PREVIEW_SCRIPT).toContain('new FormData(form)');
    expect(PREVIEW_SCRIPT).toContain('textContent');
    expect(PREVIEW_SCRIPT).not.toContain('innerHTML');
  });
});
