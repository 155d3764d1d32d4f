import { UserFacingError } from '../../bot/user-error.js';
import {
  announcePreview,
  applyAnnounce,
  currentAnnouncements,
  type AnnounceInput,
  type AnnouncePreview,
} from '../../setup/announce.js';
import { formOf, type Form } from '../form-body.js';
import { html, type Html } from '../html.js';
import { guildNames, plainText, type MentionNames } from '../page-text.js';
import { ANNOUNCE_FIELDS, announcementsPage, type AnnouncementDraft } from '../pages/announcements.js';
import { PAGES } from '../pages/form.js';
import type { At, GuildRoute, PageRoutes, Visit } from './kit.js';
import { refusal, settingsPageRoutes } from './settings-change.js';

/** The preview shows the member making the change voting: named as they are signed in. */
const voterNames = (v: Visit): MentionNames => guildNames(v.guild, { [v.actor.userId]: v.actor.name });

/** The preview as a page shows it: mentions by name, times in UTC, no markdown marks. */
const previewNamed = (preview: AnnouncePreview, v: Visit): AnnouncePreview => ({
  ...preview,
  messages: preview.messages.map((message) => ({ ...message, text: plainText(message.text, voterNames(v)) })),
});

/** The form as a change against the announcements now: only what differs is asked, so an untouched field changes nothing. */
function announceChange(form: Form, now: ReturnType<typeof currentAnnouncements>): AnnounceInput {
  const text = (typed: string | undefined, stored: string | undefined) => {
    const trimmed = (typed ?? '').trim();
    if (trimmed === (stored ?? '')) return undefined;
    return trimmed === '' ? null : typed;
  };
  const ping = form[ANNOUNCE_FIELDS.ping] === 'on';
  const everyList = form[ANNOUNCE_FIELDS.everyList] === 'on';
  return {
    template: text(form[ANNOUNCE_FIELDS.template], now.template),
    firstVote: text(form[ANNOUNCE_FIELDS.firstVote], now.firstVote),
    ping: ping === now.ping ? undefined : ping,
    everyList: everyList === now.everyList ? undefined : everyList,
  };
}

const changesSomething = (input: AnnounceInput) => Object.values(input).some((value) => value !== undefined);

/** The form as typed, for showing it again after a refusal or a preview without JavaScript. */
const typed = (form: Form) => ({
  template: form[ANNOUNCE_FIELDS.template] ?? '',
  firstVote: form[ANNOUNCE_FIELDS.firstVote] ?? '',
  ping: form[ANNOUNCE_FIELDS.ping] === 'on',
});

type Shown = { draft: AnnouncementDraft; everyList: boolean; preview?: AnnouncePreview };

/** The page: the announcements now (or the form as typed) with their preview. */
function show({ kit, request, reply, v }: At, notice: Html | null, shown?: Shown, status = 200) {
  const { base } = kit.deps;
  const { guild, i18n } = v;
  const now = currentAnnouncements(base, guild.id);
  const draft = shown ?? {
    draft: { template: now.template ?? '', firstVote: now.firstVote ?? '', ping: now.ping },
    everyList: now.everyList,
    preview: previewNamed(announcePreview(base, v.target, {}, v.actor, i18n), v),
  };
  const botName = guild.members.me?.displayName ?? i18n.t('dashboard.title');
  const body = announcementsPage({ guildId: guild.id, csrf: v.csrf, ...draft, botName, i18n });
  return kit.send(request, reply, v, 'announcements', html`${notice}${body}`, status);
}

/** The announcement templates with a live preview, changed through /setup announce's function. */
export const announcementsRoutes: PageRoutes = (app, kit) => {
  settingsPageRoutes(app, kit, PAGES.announcements, {
    show: (at, notice, status) => show(at, notice, undefined, status),
    change: ({ kit: { deps }, v }, form) => {
      const input = announceChange(form, currentAnnouncements(deps.base, v.guild.id));
      return async () => {
        if (changesSomething(input)) await applyAnnounce(deps.base, v.target, input, v.actor);
      };
    },
    // Refused, the form comes back as typed.
    again: (form) => (at, notice, status) =>
      show(at, notice, { draft: typed(form), everyList: form[ANNOUNCE_FIELDS.everyList] === 'on' }, status),
  });

  // The live preview asks for JSON (preview-script.ts); the Preview button without JavaScript, for the page.
  app.post<GuildRoute>(`/servers/:guildId/${PAGES.announcementsPreview}`, kit.gates.preview, async (request, reply) => {
    const v = await kit.visit(request, reply, true);
    return v ? preview({ kit, request, reply, v }) : reply;
  });
};

/** The preview of the form as typed: JSON for the page's script, the page itself for a browser without it. */
function preview(at: At) {
  const { kit, request, reply, v } = at;
  const { base } = kit.deps;
  const form = formOf(request);
  const input = announceChange(form, currentAnnouncements(base, v.guild.id));
  const wantsPage = request.headers.accept?.includes('text/html') === true;
  const shown = (preview?: AnnouncePreview): Shown => ({
    draft: typed(form),
    everyList: form[ANNOUNCE_FIELDS.everyList] === 'on',
    ...(preview ? { preview } : {}),
  });
  try {
    const preview = previewNamed(announcePreview(base, v.target, input, v.actor, v.i18n), v);
    if (wantsPage) return show(at, null, shown(preview));
    return reply.type('application/json; charset=utf-8').send(preview);
  } catch (error) {
    if (!(error instanceof UserFacingError)) throw error;
    if (wantsPage) return show(at, refusal(error, v), shown(), 400);
    const { t } = v.i18n;
    const text = `${t(`${error.key}.title`)}: ${t(`${error.key}.text`, error.vars)}`;
    return reply
      .code(400)
      .type('application/json; charset=utf-8')
      .send({ refused: plainText(text, guildNames(v.guild)) });
  }
}
