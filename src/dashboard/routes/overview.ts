import { statusLines } from '../../setup/status.js';
import { guildNames, plainText } from '../page-text.js';
import { overviewBody } from '../pages/overview.js';
import { sendPage } from '../send-page.js';
import type { GuildRoute, PageRoutes } from './kit.js';

/** A server's overview: /setup status's lines, what is set up and what to fix. */
export const overviewRoutes: PageRoutes = (app, kit) => {
  app.get<GuildRoute>('/servers/:guildId', kit.gates.read, async (request, reply) => {
    const v = await kit.visit(request, reply, true);
    if (!v) return reply;
    const { guild, i18n } = v;
    const { lines } = await statusLines(guild, kit.deps.base, i18n);
    const body = overviewBody(lines, (text) => plainText(text, guildNames(guild)), i18n);
    const server = { id: guild.id, name: guild.name, current: 'overview' as const };
    const title = i18n.t('dashboard.overview.title');
    return sendPage(request, reply, kit.sessions, { i18n, title, body, server });
  });
};
