import type { FastifyInstance } from 'fastify';
import { translatorFor } from '../i18n/index.js';
import { statusLines } from '../setup/status.js';
import { memberOf, requireMember, serverFor } from './access.js';
import type { DashboardDeps } from './deps.js';
import { guildNames, plainText } from './page-text.js';
import { overviewBody } from './pages/overview.js';
import { serversBody } from './pages/servers.js';
import { sendPage } from './send-page.js';
import type { Sessions } from './session.js';

/** The pages a signed-in member reads first: their servers and a server's overview. */
export function serverPages(app: FastifyInstance, deps: DashboardDeps, sessions: Sessions): void {
  const { view, base } = deps;
  const signedIn = { preHandler: requireMember(sessions) };
  app.get('/', signedIn, async (request, reply) => {
    const member = memberOf(request);
    const i18n = translatorFor(member.locale);
    const guilds = await Promise.all(member.guildIds.map((id) => view.guild(id)));
    const servers = guilds.flatMap((guild) => (guild ? [{ id: guild.id, name: guild.name }] : []));
    return sendPage(request, reply, sessions, {
      i18n,
      title: i18n.t('dashboard.servers.title'),
      body: serversBody(servers, i18n),
    });
  });

  app.get<{ Params: { guildId: string } }>('/servers/:guildId', signedIn, async (request, reply) => {
    const guild = await serverFor(request, reply, view, request.params.guildId);
    if (!guild) return reply;
    await deps.refresh(guild.id);
    const i18n = translatorFor(memberOf(request).locale);
    const { lines } = await statusLines(guild, base, i18n);
    const body = overviewBody(lines, (text) => plainText(text, guildNames(guild)), i18n);
    const server = { id: guild.id, name: guild.name, current: 'overview' as const };
    return sendPage(request, reply, sessions, { i18n, title: i18n.t('dashboard.overview.title'), body, server });
  });
}
