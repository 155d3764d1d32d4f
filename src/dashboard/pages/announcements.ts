import { PLACEHOLDERS, TEMPLATE_MAX } from '../../announce/template.js';
import type { Translator } from '../../i18n/index.js';
import type { AnnouncePreview } from '../../setup/announce.js';
import { html, type Html } from '../html.js';
import { pagePath, PAGES, postForm, textarea, type FormTarget } from './form.js';

/** Where the page loads the live preview from (script-src 'self': no inline script); preview-script.ts is served there. */
export const PREVIEW_SCRIPT_PATH = '/static/announce-preview.js';

/** The fields of the announcements form; the checkboxes are sent only when ticked (HTML forms). */
export const ANNOUNCE_FIELDS = {
  template: 'template',
  firstVote: 'firstVote',
  ping: 'ping',
  everyList: 'everyList',
} as const;

/** The preview block's id, which the progressive script (preview-script.ts) fills. */
export const PREVIEW_ID = 'announce-preview';

export interface AnnouncementDraft {
  /** As typed; blank: the built-in line. */
  template: string;
  firstVote: string;
  ping: boolean;
}

export interface AnnouncementsPageInput extends FormTarget {
  draft: AnnouncementDraft;
  everyList: boolean;
  /** What announcements would say with the draft (setup/announce.ts `announcePreview`); none after a refusal. */
  preview?: AnnouncePreview;
  /** Who posts them: the bot's name in the server. */
  botName: string;
  i18n: Translator;
}

/**
 * The template editor: the template, the first-vote line, pings and the every-list line, with a
 * preview. Without JavaScript the Preview button posts to the preview page; with it the preview
 * follows the typing (preview-script.ts).
 */
export function announcementsPage(input: AnnouncementsPageInput): Html {
  const { t } = input.i18n;
  const { draft } = input;
  const previewUrl = pagePath(input.guildId, PAGES.announcementsPreview);
  const body = html`<label for="template">${t('dashboard.pages.announce.template')}</label>
    ${textarea({ id: 'template', name: ANNOUNCE_FIELDS.template, rows: 3, maxlength: TEMPLATE_MAX }, draft.template)}
    <label for="first-vote">${t('dashboard.pages.announce.firstVote')}</label>
    ${textarea({ id: 'first-vote', name: ANNOUNCE_FIELDS.firstVote, rows: 2, maxlength: TEMPLATE_MAX }, draft.firstVote)}
    <p class="note">
      ${placeholdersMarked(
        t('dashboard.pages.announce.placeholders', { known: PLACEHOLDERS.map((name) => `{${name}}`).join(' ') }),
      )}
    </p>
    ${checkbox(ANNOUNCE_FIELDS.ping, draft.ping, placeholdersMarked(t('dashboard.pages.announce.ping')))}
    ${checkbox(ANNOUNCE_FIELDS.everyList, input.everyList, t('dashboard.pages.announce.everyList'))}
    <div class="buttons">
      <button type="submit">${t('dashboard.pages.save')}</button>
      <button type="submit" formaction="${previewUrl}">${t('dashboard.pages.announce.preview')}</button>
    </div>`;
  return html`<section class="announcements">
    ${postForm(input, PAGES.announcements, body, 'form card announce-form')}
    <h2>${t('setup.announce.preview.title')}</h2>
    <div id="${PREVIEW_ID}" class="discord-preview" data-preview-url="${previewUrl}" data-bot="${input.botName}" aria-live="polite">
      ${input.preview ? previewMessages(input.preview, input.botName) : null}
    </div>
    <script src="${PREVIEW_SCRIPT_PATH}" defer></script>
  </section>`;
}

/**
 * The preview drawn as Discord draws the bot's messages: its avatar's initial, its name and the BOT
 * tag, each message's text; what it is above each, and who is pinged below. preview-script.ts draws
 * the same from the live preview's JSON.
 */
function previewMessages(preview: AnnouncePreview, botName: string): Html {
  return html`${preview.builtIn ? html`<p class="note">${preview.builtIn}</p>` : null}
    ${preview.messages.map(
      ({ label, text }) => html`<p class="preview-label">${label}</p>
        <div class="message">
          <span class="avatar" aria-hidden="true">${botName.slice(0, 1).toUpperCase()}</span>
          <div class="message-body">
            <span class="author">${botName}</span> <span class="bot-tag">BOT</span>
            <p class="message-text">${text}</p>
          </div>
        </div>`,
    )}
    ${preview.notes.map((note) => html`<p class="note">${note}</p>`)}`;
}

/** A text naming placeholders (`{user}`) with each set as code: words to type, not a value left unfilled. */
function placeholdersMarked(text: string): Html {
  const parts = text.split(/(\{[a-z_]+\})/);
  return html`${parts.map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : part))}`;
}

function checkbox(name: string, checked: boolean, label: Html | string): Html {
  return html`<label class="check"
    ><input type="checkbox" name="${name}" value="on" ${checked ? html` checked` : null} /> ${label}</label
  >`;
}
