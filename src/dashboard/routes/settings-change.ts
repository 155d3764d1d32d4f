import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { UserFacingError } from '../../bot/user-error.js';
import type { Html } from '../html.js';
import { guildNames, plainText } from '../page-text.js';
import { pagePath, type PagePath } from '../pages/form.js';
import { refusedNotice, savedNotice } from '../pages/notices.js';
import { formOf, type Form } from '../form-body.js';
import type { At, GuildRoute, PageKit, Visit } from './kit.js';

/** A whole number as typed; anything else is NaN, which the apply functions refuse with their own words. */
export const whole = (text: string | undefined): number =>
  text !== undefined && /^\s*\d{1,9}\s*$/.test(text) ? Number(text) : NaN;

/** A picker's choice; the empty choice (off) is undefined. */
export const chosen = (value: string | undefined): string | undefined =>
  value === undefined || value === '' ? undefined : value;

/** Why a change was refused, in /setup's words with the server's mentions named. */
export const refusal = (error: UserFacingError, { i18n, guild }: Visit): Html =>
  refusedNotice(i18n.t(`${error.key}.title`), plainText(i18n.t(`${error.key}.text`, error.vars), guildNames(guild)));

/** The notice after a change was saved, when the page was redirected to with `?saved=1`. */
const saved = (request: FastifyRequest<GuildRoute>, { i18n }: Visit): Html | null =>
  request.query.saved === '1' ? savedNotice(i18n.t('dashboard.saved')) : null;

/**
 * Runs a settings page's change; refused, the page again with why and what was typed (400, or 429 past
 * the change budget; nothing stored); made, back to the page (303) saying so.
 */
async function save(
  request: FastifyRequest<GuildRoute>,
  reply: FastifyReply,
  v: Visit,
  back: PagePath,
  change: () => Promise<unknown>,
  again: (notice: Html, status: number) => unknown,
) {
  if (request.changesWait > 0)
    return again(refusal(new UserFacingError('dashboard.error.tooMany', { seconds: request.changesWait }), v), 429);
  try {
    await change();
  } catch (error) {
    if (!(error instanceof UserFacingError)) throw error;
    return again(refusal(error, v), 400);
  }
  return reply.redirect(`${pagePath(v.guild.id, back)}?saved=1`, 303);
}

/** A settings page, drawn with a notice above it (saved, or why a change was refused) and its status. */
export type SettingsPage = (at: At, notice: Html | null, status?: number) => unknown;

/**
 * A settings page's two routes, read and changed: read, with the `?saved=1` notice once; a change
 * (`change` makes it from the form) made, back to the page, or refused, the page again (drawn by
 * `again` with what was typed, when the page keeps it). Under `npm run dashboard`, /setup may have
 * changed the server in the bot's process: each reads its settings again first.
 */
export function settingsPageRoutes(
  app: FastifyInstance,
  kit: PageKit,
  page: PagePath,
  parts: {
    show: SettingsPage;
    change: (at: At, form: Form) => () => Promise<unknown>;
    again?: (form: Form) => SettingsPage;
  },
): void {
  const { show, change, again = () => show } = parts;
  app.get<GuildRoute>(`/servers/:guildId/${page}`, kit.gates.read, async (request, reply) => {
    const v = await kit.visit(request, reply, true);
    return v ? show({ kit, request, reply, v }, saved(request, v)) : reply;
  });
  app.post<GuildRoute>(`/servers/:guildId/${page}`, kit.gates.changeKeepsTyped, async (request, reply) => {
    const v = await kit.visit(request, reply, true);
    if (!v) return reply;
    const at = { kit, request, reply, v };
    const form = formOf(request);
    const drawAgain = again(form);
    return save(request, reply, v, page, change(at, form), (notice, status) => drawAgain(at, notice, status));
  });
}
