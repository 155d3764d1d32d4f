import { describe, expect, it } from '@jest/globals';
import { ANNOUNCE_FIELDS, announcementsPage, PREVIEW_ID } from '../../../../src/dashboard/pages/announcements.js';
import { PREVIEW_SCRIPT } from '../../../../src/dashboard/pages/preview-script.js';
import { translatorFor } from '../../../../src/i18n/index.js';
import { expectEveryFormGuarded, flat, HOSTILE, HOSTILE_ESCAPED } from '../../../support/html-forms.js';

const GUILD = '100000000000000003';
const CSRF = 'csrf-token-789';
const i18n = translatorFor('en-US');

describe('the announcements page', () => {
  const preview = {
    messages: [{ label: 'A vote', text: `${HOSTILE} <@200000000000000001>` }],
    notes: ['Pings: nobody'],
  };
  const page = flat(
    announcementsPage({
      guildId: GUILD,
      csrf: CSRF,
      draft: { template: `${HOSTILE} {user}`, firstVote: '', ping: true },
      everyList: false,
      preview,
      botName: `Votes ${HOSTILE}`,
      i18n,
    }).text,
  );

  it('puts the template in the editor and the preview, escaped both times', () => {
    expect(page).toContain(
      `name="${ANNOUNCE_FIELDS.template}" rows="3" maxlength="500">${HOSTILE_ESCAPED} {user}</textarea>`,
    );
    // The preview is the messages the route hands in, each drawn as the bot's message, escaped.
    expect(page).toContain('<p class="preview-label">A vote</p>');
    expect(page).toContain('<span class="avatar" aria-hidden="true">V</span>');
    expect(page).toContain(`<span class="author">Votes ${HOSTILE_ESCAPED}</span> <span class="bot-tag">BOT</span>`);
    expect(page).toContain(`<p class="message-text">${HOSTILE_ESCAPED} &lt;@200000000000000001&gt;</p>`);
    expect(page).toContain('<p class="note">Pings: nobody</p>');
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
    expect(page).toContain(`<div id="${PREVIEW_ID}"`);
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
