import type { Guild } from 'discord.js';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { Actor } from '../../bot/actor.js';
import { translatorFor, type Translator } from '../../i18n/index.js';
import type { ChangeTarget } from '../../setup/change.js';
import { memberOf, requireMember, serverFor } from '../access.js';
import type { DashboardDeps } from '../deps.js';
import type { Html } from '../html.js';
import type { ServerPageId } from '../nav.js';
import { sendPage } from '../send-page.js';
import type { Sessions } from '../session.js';

/** The routes of one of a server's pages (nav.ts lists them), registered by routes/index.ts. */
export type PageRoutes = (app: FastifyInstance, kit: PageKit) => void;

export type GuildRoute = { Params: { guildId: string }; Querystring: Record<string, string | undefined> };

/** A signed-in member's visit to one of the server's pages: all a page or a change needs. */
export interface Visit {
  guild: Guild;
  i18n: Translator;
  csrf: string;
  actor: Actor;
  target: ChangeTarget;
}

/** One request to a page, once its server is known: where it answers and with what. */
export interface At {
  readonly kit: PageKit;
  readonly request: FastifyRequest<GuildRoute>;
  readonly reply: FastifyReply;
  readonly v: Visit;
}

/**
 * What every page's routes share. One gate style: a page is read behind `gates.read`; a change (a POST)
 * goes behind `gates.change`, and the app's hooks check its form token, the member's Manage Server
 * and the change budget (app.ts) before it runs.
 */
export interface PageKit {
  readonly deps: DashboardDeps;
  readonly sessions: Sessions;
  readonly gates: {
    readonly read: RouteShorthandOptions;
    readonly change: RouteShorthandOptions;
    /** A change whose page is drawn again with what was typed when the budget is spent (429). */
    readonly changeKeepsTyped: RouteShorthandOptions;
    /** The announcement preview: its own, larger budget. */
    readonly preview: RouteShorthandOptions;
  };
  /**
   * The page's server, or undefined once the 403/404 page is sent. `refresh`: read its settings again
   * first, as /setup may have changed them in another process (under `npm run dashboard`).
   */
  visit(request: FastifyRequest<GuildRoute>, reply: FastifyReply, refresh: boolean): Promise<Visit | undefined>;
  /** The page, in the server's menu with `current` marked. */
  send(
    request: FastifyRequest,
    reply: FastifyReply,
    v: Pick<Visit, 'guild' | 'i18n'>,
    current: ServerPageId,
    body: Html,
    status?: number,
  ): FastifyReply;
}

export function pageKit(deps: DashboardDeps, sessions: Sessions): PageKit {
  const read = { preHandler: requireMember(sessions) };
  return {
    deps,
    sessions,
    gates: {
      read,
      change: read,
      changeKeepsTyped: { ...read, config: { keepsTyped: true } },
      preview: { ...read, config: { preview: true } },
    },
    async visit(request, reply, refresh) {
      const guild = await serverFor(request, reply, deps.view, request.params.guildId);
      if (!guild) return undefined;
      if (refresh) await deps.refresh(guild.id);
      const member = memberOf(request);
      return {
        guild,
        i18n: translatorFor(member.locale),
        csrf: sessions.csrf(request),
        actor: { userId: member.id, name: member.name, via: 'dashboard', locale: member.locale },
        target: { guildId: guild.id, guild },
      };
    },
    send: (request, reply, { guild, i18n }, current, body, status = 200) =>
      sendPage(request, reply, sessions, { i18n, body, server: { id: guild.id, name: guild.name, current }, status }),
  };
}
