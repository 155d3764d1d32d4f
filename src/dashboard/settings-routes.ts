import type { Guild } from 'discord.js';
import { ChannelType } from 'discord-api-types/v10';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { UserFacingError } from '../bot/user-error.js';
import { translatorFor, type Translator } from '../i18n/index.js';
import {
  announcePreview,
  applyAnnounce,
  currentAnnouncements,
  type AnnounceInput,
  type AnnouncePreview,
} from '../setup/announce.js';
import type { Actor, ChangeTarget } from '../setup/change.js';
import { applyChannel, CHANNEL_KINDS, missingIn, POSTABLE_CHANNELS, type ChannelKind } from '../setup/channel.js';
import { settingFixed } from '../setup/manage-server.js';
import { SETTING_VARIABLES } from '../servers/server-settings.js';
import { applyMilestone } from '../setup/milestone.js';
import { applyRole, roleProblemsIn } from '../setup/role.js';
import { applyStreak } from '../setup/streak.js';
import { DEFAULT_STREAK_GRACE_HOURS } from '../streaks/streak.js';
import { memberOf, requireMember, serverFor } from './access.js';
import type { DashboardDeps } from './deps.js';
import { guildNames, plainText, type MentionNames } from './page-text.js';
import { html, type Html } from './html.js';
import { ANNOUNCE_FIELDS, announcementsPage, type AnnouncementDraft } from './pages/announcements.js';
import { CHANNEL_FIELDS, CHANNEL_KIND_NAMES, channelsPage, type ChannelsPageInput } from './pages/channels.js';
import type { ChannelChoice, RoleChoice } from './pages/choices.js';
import { pagePath, PAGES } from './pages/form.js';
import { refusedNotice, savedNotice } from './pages/notices.js';
import { REWARD_FIELDS, rewardsPage } from './pages/rewards.js';
import { formOf, type Form } from './form-body.js';
import { sendPage } from './send-page.js';
import type { Sessions } from './session.js';

const HOUR_MS = 3_600_000;

type SettingsPage = 'channels' | 'announcements' | 'rewards';
interface Route {
  Params: { guildId: string };
  Querystring: { saved?: string };
}

/** A signed-in member's visit to one of the server's settings pages: all a page or a change needs. */
interface Visit {
  guild: Guild;
  i18n: Translator;
  csrf: string;
  actor: Actor;
  target: ChangeTarget;
}

/** The preview shows the member making the change voting: named as they are signed in. */
const voterNames = (v: Visit): MentionNames => guildNames(v.guild, { [v.actor.userId]: v.actor.name });

/** The preview as a page shows it: mentions by name, times in UTC, no markdown marks. */
const previewNamed = (preview: AnnouncePreview, v: Visit): AnnouncePreview => ({
  ...preview,
  messages: preview.messages.map((message) => ({ ...message, text: plainText(message.text, voterNames(v)) })),
});

/** A whole number as typed; anything else is NaN, which the apply functions refuse with their own words. */
const whole = (text: string | undefined): number =>
  text !== undefined && /^\s*\d{1,9}\s*$/.test(text) ? Number(text) : NaN;
const chosen = (value: string | undefined): string | undefined =>
  value === undefined || value === '' ? undefined : value;

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

/**
 * The settings pages: channels and roles, announcements (with the live preview), rewards and
 * reminders. Each page reads what the bot sees; each form calls the same apply function as its
 * /setup command with a dashboard actor, so the rules, the audit line and the store are /setup's.
 */
export function settingsRoutes(app: FastifyInstance, deps: DashboardDeps, sessions: Sessions): void {
  const { view, base } = deps;
  const signedIn = { preHandler: requireMember(sessions) };
  const keepsTyped = { ...signedIn, config: { keepsTyped: true } };
  const preview = { ...signedIn, config: { preview: true } };

  const visit = async (request: FastifyRequest<Route>, reply: FastifyReply): Promise<Visit | undefined> => {
    const guild = await serverFor(request, reply, view, request.params.guildId);
    if (!guild) return undefined;
    // Under `npm run dashboard`, /setup may have changed the server in the bot's process.
    await deps.refresh(guild.id);
    const member = memberOf(request);
    return {
      guild,
      i18n: translatorFor(member.locale),
      csrf: sessions.csrf(request),
      actor: { userId: member.id, name: member.name, via: 'dashboard', locale: member.locale },
      target: { guildId: guild.id, guild },
    };
  };

  const send = (
    request: FastifyRequest,
    reply: FastifyReply,
    { guild, i18n }: Visit,
    current: SettingsPage,
    body: Html,
    status = 200,
  ) => sendPage(request, reply, sessions, { i18n, body, server: { id: guild.id, name: guild.name, current }, status });

  const refusal = (error: UserFacingError, { i18n, guild }: Visit) =>
    refusedNotice(i18n.t(`${error.key}.title`), plainText(i18n.t(`${error.key}.text`, error.vars), guildNames(guild)));

  const channelsInput = (v: Visit): ChannelsPageInput => {
    const { guild, i18n } = v;
    const settings = base.servers.settings(guild.id);
    const current: Partial<Record<ChannelKind, string>> = {};
    const channelProblems: Partial<Record<ChannelKind, string[]>> = {};
    const fixed = new Map<ChannelKind | 'moderatorRoleIds', string>();
    for (const kind of CHANNEL_KIND_NAMES) {
      const setting = CHANNEL_KINDS[kind];
      if (settingFixed(base.servers, guild.id, setting)) fixed.set(kind, SETTING_VARIABLES[setting]);
      const channelId = settings?.[setting];
      if (channelId === undefined) continue;
      current[kind] = channelId;
      channelProblems[kind] = channelProblemsOf(guild, channelId, i18n);
    }
    if (settingFixed(base.servers, guild.id, 'moderatorRoleIds'))
      fixed.set('moderatorRoleIds', SETTING_VARIABLES.moderatorRoleIds);
    return {
      guildId: guild.id,
      csrf: v.csrf,
      channels: channelsOf(guild),
      roles: rolesOf(guild),
      current,
      channelProblems,
      moderatorRoleIds: settings?.moderatorRoleIds ?? [],
      fixed,
      i18n,
    };
  };

  const channels = (request: FastifyRequest<Route>, reply: FastifyReply, v: Visit, notice: Html | null, status = 200) =>
    send(request, reply, v, 'channels', html`${notice}${channelsPage(channelsInput(v))}`, status);

  const rewards = async (
    request: FastifyRequest<Route>,
    reply: FastifyReply,
    v: Visit,
    notice: Html | null,
    status = 200,
  ) => {
    const { guild, i18n } = v;
    const settings = base.servers.settings(guild.id);
    const milestones = await base.setup.milestones(guild.id).milestones();
    const voterRoleId = settings?.voterRoleId;
    const roleIds = [...(voterRoleId === undefined ? [] : [voterRoleId]), ...milestones.map((m) => m.roleId)];
    const roleProblems = Object.fromEntries(roleIds.map((id) => [id, roleProblemsIn(guild, id, i18n).problems]));
    const body = rewardsPage({
      ...channelsInput(v),
      milestones,
      graceHours: settings ? Math.round(settings.streakGraceMs / HOUR_MS) : DEFAULT_STREAK_GRACE_HOURS,
      voterRoleId,
      roleProblems,
    });
    return send(request, reply, v, 'rewards', html`${notice}${body}`, status);
  };

  const announcements = (
    request: FastifyRequest<Route>,
    reply: FastifyReply,
    v: Visit,
    notice: Html | null,
    shown?: { draft: AnnouncementDraft; everyList: boolean; preview?: AnnouncePreview },
    status = 200,
  ) => {
    const { guild, i18n } = v;
    const now = currentAnnouncements(base, guild.id);
    const draft = shown ?? {
      draft: { template: now.template ?? '', firstVote: now.firstVote ?? '', ping: now.ping },
      everyList: now.everyList,
      preview: previewNamed(announcePreview(base, v.target, {}, v.actor, i18n), v),
    };
    const botName = guild.members.me?.displayName ?? i18n.t('dashboard.title');
    const body = announcementsPage({ guildId: guild.id, csrf: v.csrf, ...draft, botName, i18n });
    return send(request, reply, v, 'announcements', html`${notice}${body}`, status);
  };

  /**
   * Runs a change; refused, the page again with why and what was typed (400, or 429 past the change
   * budget; nothing stored); made, back to the page (303) saying so.
   */
  const save = async (
    request: FastifyRequest<Route>,
    reply: FastifyReply,
    v: Visit,
    back: SettingsPage,
    change: () => Promise<unknown>,
    again: (notice: Html, status: number) => unknown,
  ) => {
    if (request.changesWait > 0)
      return again(refusal(new UserFacingError('dashboard.error.tooMany', { seconds: request.changesWait }), v), 429);
    try {
      await change();
    } catch (error) {
      if (!(error instanceof UserFacingError)) throw error;
      return again(refusal(error, v), 400);
    }
    return reply.redirect(`${pagePath(v.guild.id, PAGES[back])}?saved=1`, 303);
  };

  const saved = (request: FastifyRequest<Route>, { i18n }: Visit) =>
    request.query.saved === '1' ? savedNotice(i18n.t('dashboard.saved')) : null;

  app.get<Route>(`/servers/:guildId/${PAGES.channels}`, signedIn, async (request, reply) => {
    const v = await visit(request, reply);
    return v ? channels(request, reply, v, saved(request, v)) : reply;
  });

  /** A feature's channel form: on the channels page, and the reminders' on the rewards page. */
  const channelChange = (form: Form, v: Visit) =>
    applyChannel(
      base,
      v.target,
      { kind: form[CHANNEL_FIELDS.kind] ?? '', channelId: chosen(form[CHANNEL_FIELDS.channel]) },
      v.actor,
    );

  app.post<Route>(`/servers/:guildId/${PAGES.channels}`, keepsTyped, async (request, reply) => {
    const v = await visit(request, reply);
    if (!v) return reply;
    const form = formOf(request);
    const change = () => {
      if (form[CHANNEL_FIELDS.moderatorAdd] !== undefined)
        return applyRole(base, v.target, { moderators: chosen(form[CHANNEL_FIELDS.moderatorAdd]) }, v.actor);
      if (form[CHANNEL_FIELDS.moderatorRemove] !== undefined)
        return applyRole(base, v.target, { remove: chosen(form[CHANNEL_FIELDS.moderatorRemove]) }, v.actor);
      return channelChange(form, v);
    };
    return save(request, reply, v, 'channels', change, (notice, status) => channels(request, reply, v, notice, status));
  });

  app.get<Route>(`/servers/:guildId/${PAGES.rewards}`, signedIn, async (request, reply) => {
    const v = await visit(request, reply);
    return v ? rewards(request, reply, v, saved(request, v)) : reply;
  });

  app.post<Route>(`/servers/:guildId/${PAGES.rewards}`, keepsTyped, async (request, reply) => {
    const v = await visit(request, reply);
    if (!v) return reply;
    const form = formOf(request);
    const change = () => {
      if (form[REWARD_FIELDS.milestoneRemove] !== undefined)
        return applyMilestone(base, v.target, { remove: chosen(form[REWARD_FIELDS.milestoneRemove]) }, v.actor);
      if (form[REWARD_FIELDS.milestoneRole] !== undefined) {
        const input = {
          roleId: chosen(form[REWARD_FIELDS.milestoneRole]),
          votes: whole(form[REWARD_FIELDS.votes]),
          period: chosen(form[REWARD_FIELDS.period]),
        };
        return applyMilestone(base, v.target, input, v.actor);
      }
      if (form[CHANNEL_FIELDS.kind] !== undefined) return channelChange(form, v);
      if (form[REWARD_FIELDS.graceHours] !== undefined)
        return applyStreak(base, v.target, { graceHours: whole(form[REWARD_FIELDS.graceHours]) }, v.actor);
      return applyRole(base, v.target, { voter: chosen(form[REWARD_FIELDS.voterRole]) }, v.actor);
    };
    return save(request, reply, v, 'rewards', change, (notice, status) => rewards(request, reply, v, notice, status));
  });

  app.get<Route>(`/servers/:guildId/${PAGES.announcements}`, signedIn, async (request, reply) => {
    const v = await visit(request, reply);
    return v ? announcements(request, reply, v, saved(request, v)) : reply;
  });

  /** The form as typed, for showing it again after a refusal or a preview without JavaScript. */
  const typed = (form: Form) => ({
    template: form[ANNOUNCE_FIELDS.template] ?? '',
    firstVote: form[ANNOUNCE_FIELDS.firstVote] ?? '',
    ping: form[ANNOUNCE_FIELDS.ping] === 'on',
  });

  app.post<Route>(`/servers/:guildId/${PAGES.announcements}`, keepsTyped, async (request, reply) => {
    const v = await visit(request, reply);
    if (!v) return reply;
    const form = formOf(request);
    const input = announceChange(form, currentAnnouncements(base, v.guild.id));
    const everyList = form[ANNOUNCE_FIELDS.everyList] === 'on';
    const change = async () => {
      if (changesSomething(input)) await applyAnnounce(base, v.target, input, v.actor);
    };
    return save(request, reply, v, 'announcements', change, (notice, status) =>
      announcements(request, reply, v, notice, { draft: typed(form), everyList }, status),
    );
  });

  // The live preview asks for JSON (preview-script.ts); the Preview button without JavaScript, for the page.
  app.post<Route>(`/servers/:guildId/${PAGES.announcementsPreview}`, preview, async (request, reply) => {
    const v = await visit(request, reply);
    if (!v) return reply;
    const form = formOf(request);
    const input = announceChange(form, currentAnnouncements(base, v.guild.id));
    const wantsPage = request.headers.accept?.includes('text/html') === true;
    const shown = (preview?: AnnouncePreview) => ({
      draft: typed(form),
      everyList: form[ANNOUNCE_FIELDS.everyList] === 'on',
      ...(preview ? { preview } : {}),
    });
    try {
      const preview = previewNamed(announcePreview(base, v.target, input, v.actor, v.i18n), v);
      if (wantsPage) return announcements(request, reply, v, null, shown(preview));
      return reply.type('application/json; charset=utf-8').send(preview);
    } catch (error) {
      if (!(error instanceof UserFacingError)) throw error;
      if (wantsPage) return announcements(request, reply, v, refusal(error, v), shown(), 400);
      const { t } = v.i18n;
      const text = `${t(`${error.key}.title`)}: ${t(`${error.key}.text`, error.vars)}`;
      return reply
        .code(400)
        .type('application/json; charset=utf-8')
        .send({ refused: plainText(text, guildNames(v.guild)) });
    }
  });
}

/** The server's channels as the pickers list them: text and announcement channels are the ones offered. */
function channelsOf(guild: Guild): ChannelChoice[] {
  return [...guild.channels.cache.values()].flatMap((channel) =>
    channel.type === ChannelType.GuildCategory || channel.isThread()
      ? []
      : [
          {
            id: channel.id,
            name: channel.name,
            position: channel.rawPosition,
            postable: (POSTABLE_CHANNELS as readonly ChannelType[]).includes(channel.type),
          },
        ],
  );
}

/** Roles a member can be given: not @everyone, not a bot's or integration's own. */
function rolesOf(guild: Guild): RoleChoice[] {
  return [...guild.roles.cache.values()]
    .filter((role) => role.id !== guild.id && !role.managed)
    .map((role) => ({ id: role.id, name: role.name, position: role.position }));
}

/** What keeps the bot from posting in a feature's channel, by /setup channel's own check, in the member's words. */
function channelProblemsOf(guild: Guild, channelId: string, { t }: Translator): string[] {
  try {
    const missing = missingIn(guild, channelId);
    if (missing.length === 0) return [];
    const channel = `#${guild.channels.cache.get(channelId)?.name ?? channelId}`;
    return [t('setup.status.channelMissing', { channel, missing: missing.join(', ') })];
  } catch (error) {
    if (error instanceof UserFacingError) return [t(`${error.key}.text`, error.vars)];
    throw error;
  }
}
