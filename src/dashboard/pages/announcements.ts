import { PLACEHOLDERS, TEMPLATE_MAX } from '../../announce/template.js';
import type { Translator } from '../../i18n/index.js';
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
  /** What announcements would say with the draft: /setup's preview text (setup/announce.ts `announcePreview`). */
  preview: string;
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
      ${t('dashboard.pages.announce.placeholders', { known: PLACEHOLDERS.map((name) => `{${name}}`).join(' ') })}
    </p>
    ${checkbox(ANNOUNCE_FIELDS.ping, draft.ping, t('dashboard.pages.announce.ping'))}
    ${checkbox(ANNOUNCE_FIELDS.everyList, input.everyList, t('dashboard.pages.announce.everyList'))}
    <div class="buttons">
      <button type="submit">${t('dashboard.pages.save')}</button>
      <button type="submit" formaction="${previewUrl}">${t('dashboard.pages.announce.preview')}</button>
    </div>`;
  return html`<section class="announcements">
    ${postForm(input, PAGES.announcements, body, 'form card announce-form')}
    <h2>${t('setup.announce.preview.title')}</h2>
    <pre id="${PREVIEW_ID}" class="preview" data-preview-url="${previewUrl}" aria-live="polite">${input.preview}</pre>
    <script src="${PREVIEW_SCRIPT_PATH}" defer></script>
  </section>`;
}

function checkbox(name: string, checked: boolean, label: string): Html {
  return html`<label class="check"
    ><input type="checkbox" name="${name}" value="on" ${checked ? html` checked` : null} /> ${label}</label
  >`;
}
