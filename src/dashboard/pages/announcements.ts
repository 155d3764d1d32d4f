import { checkTemplate, PLACEHOLDERS, TEMPLATE_MAX } from '../../announce/template.js';
import type { Translator } from '../../i18n/index.js';
import { exampleAnnouncements, templateRefusal, type PreviewVoter } from '../../setup/announce-preview.js';
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

/**
 * The preview of a draft as plain text, by the same template code the bot posts with and
 * `/setup announce preview:` shows: an example vote and first vote, and who is pinged; or, for a
 * template /setup would refuse, the refusal in the same words.
 */
export function announcementPreview(draft: AnnouncementDraft, voter: PreviewVoter, i18n: Translator): string {
  const { t } = i18n;
  const templates = { template: draft.template, firstVote: draft.firstVote };
  const checked: Record<keyof typeof templates, string | undefined> = { template: undefined, firstVote: undefined };
  for (const field of ['template', 'firstVote'] as const) {
    if (templates[field].trim() === '') continue;
    const check = checkTemplate(templates[field]);
    if (!check.ok) {
      const { key, vars } = templateRefusal(check);
      return `${t(`${key}.title`)}: ${t(`${key}.text`, vars)}`;
    }
    checked[field] = check.template;
  }
  const example = exampleAnnouncements({ ...checked, ping: draft.ping }, voter, i18n);
  return [
    ...(example.builtIn ? [t('setup.announce.builtIn')] : []),
    t('setup.announce.voteLabel'),
    example.vote,
    t('setup.announce.firstLabel'),
    example.first,
    '',
    t(example.pings ? 'setup.announce.pingsVoter' : 'setup.announce.pingsNobody'),
  ].join('\n');
}

export interface AnnouncementsPageInput extends FormTarget {
  draft: AnnouncementDraft;
  everyList: boolean;
  /** `announcementPreview` of the draft. */
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
    <h1>${t('dashboard.pages.announce.title')}</h1>
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
