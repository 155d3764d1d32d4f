import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { translatorFor, type Translator } from '../i18n/index.js';
import { statusLines } from '../setup/status.js';
import { memberOf, requireMember, serverFor } from './access.js';
import type { DashboardDeps } from './deps.js';
import type { Html } from './html.js';
import { guildNames, plainText } from './page-text.js';
import { page } from './layout.js';
import type { ServerPageId } from './nav.js';
import { overviewBody } from './pages/overview.js';
import { serversBody } from './pages/servers.js';
import type { Sessions } from './session.js';

/** The pages a signed-in member reads first: their servers and a server's overview. */
export function serverPages(app: FastifyInstance, deps: DashboardDeps, sessions: Sessions): void {
  const { view, base } = deps;
  const signedIn = { preHandler: requireMember(sessions) };
  const send = (
    request: FastifyRequest,
    reply: FastifyReply,
    i18n: Translator,
    title: string,
    body: Html,
    server?: {
      id: string;
      name: string;
      current: ServerPageId;
    },
  ) => {
    const member = memberOf(request);
    return reply
      .type('text/html; charset=utf-8')
      .send(page({ i18n, title, body, member: { member, csrf: sessions.csrf(request) }, server }));
  };

  app.get('/', signedIn, async (request, reply) => {
    const member = memberOf(request);
    const i18n = translatorFor(member.locale);
    const guilds = await Promise.all(member.guildIds.map((id) => view.guild(id)));
    const servers = guilds.flatMap((guild) => (guild ? [{ id: guild.id, name: guild.name }] : []));
    return send(request, reply, i18n, i18n.t('dashboard.servers.title'), serversBody(servers, i18n));
  });

  app.get<{ Params: { guildId: string } }>('/servers/:guildId', signedIn, async (request, reply) => {
    const guild = await serverFor(request, reply, view, request.params.guildId);
    if (!guild) return reply;
    await deps.refresh(guild.id);
    const i18n = translatorFor(memberOf(request).locale);
    const { lines } = await statusLines(guild, base, i18n);
    const body = overviewBody(lines, (text) => plainText(text, guildNames(guild)), i18n);
    return send(request, reply, i18n, i18n.t('dashboard.overview.title'), body, {
      id: guild.id,
      name: guild.name,
      current: 'overview',
    });
  });
}
