import type { Guild } from 'discord.js';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SNOWFLAKE } from '../api/index.js';
import type { BotView } from './deps.js';
import { problemPage } from './errors.js';
import { isChange } from './form-body.js';
import type { Member, Sessions } from './session.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireMember on the pages that need a sign-in. */
    dashboardMember?: Member;
  }
}

/** The member, for a route behind requireMember. */
export const memberOf = (request: FastifyRequest): Member => request.dashboardMember!;

/**
 * Pages for signed-in members: nobody signed in is sent to /login (which brings them back here), or
 * refused 401 when the request was not a page to open.
 */
export function requireMember(sessions: Sessions) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const member = sessions.member(request);
    if (member) {
      request.dashboardMember = member;
      return;
    }
    if (!isChange(request)) return reply.redirect(`/login?next=${encodeURIComponent(request.url)}`);
    return problemPage(request, reply, 401, 'dashboard.error.signIn');
  };
}

/**
 * Whether the member may change the server's settings, asked of the bot's own view of them (their
 * roles and ownership now, as discord.js computes permissions) rather than of the sign-in's list,
 * which Discord wrote up to 12 hours ago. Every request that changes something asks it.
 */
export function mayChangeWith(view: BotView) {
  return async function mayChange(guildId: string, userId: string): Promise<boolean> {
    const guild = await view.guild(guildId);
    if (!guild) return false;
    const member = await view.member(guild, userId);
    return member?.permissions.has(PermissionFlagsBits.ManageGuild) === true;
  };
}

/**
 * The server a page is about, when this member may see it: one Discord listed as theirs to manage at
 * sign-in, that the bot is in. Otherwise the 404 or 403 page is sent and undefined returned.
 */
export async function serverFor(
  request: FastifyRequest,
  reply: FastifyReply,
  view: BotView,
  guildId: string,
): Promise<Guild | undefined> {
  const member = memberOf(request);
  if (!SNOWFLAKE.test(guildId)) {
    await problemPage(request, reply, 404, 'dashboard.error.notFound', {}, member);
    return undefined;
  }
  const guild = member.guildIds.includes(guildId) ? await view.guild(guildId) : undefined;
  if (!guild) await problemPage(request, reply, 403, 'dashboard.error.forbidden', {}, member);
  return guild;
}

/**
 * For the whole app, after the form token is checked: a change to a server (a request other than GET
 * with a guild id in its path) needs a signed-in member the bot sees with Manage Server there.
 */
export function guardChanges(sessions: Sessions, view: BotView, mayChange: ReturnType<typeof mayChangeWith>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isChange(request)) return;
    const guildId = (request.params as { guildId?: string } | undefined)?.guildId;
    if (guildId === undefined) return;
    const member = sessions.member(request);
    if (!member) return problemPage(request, reply, 401, 'dashboard.error.signIn');
    request.dashboardMember = member;
    if (!(await serverFor(request, reply, view, guildId))) return reply;
    if (!(await mayChange(guildId, member.id)))
      return problemPage(request, reply, 403, 'dashboard.error.forbidden', {}, member);
  };
}
