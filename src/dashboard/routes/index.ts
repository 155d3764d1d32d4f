import type { FastifyInstance } from 'fastify';
import { translatorFor } from '../../i18n/index.js';
import { memberOf } from '../access.js';
import type { DashboardDeps } from '../deps.js';
import type { ServerPageId } from '../nav.js';
import { serversBody } from '../pages/servers.js';
import { sendPage } from '../send-page.js';
import type { Sessions } from '../session.js';
import { announcementsRoutes } from './announcements.js';
import { channelsRoutes } from './channels.js';
import { deliveriesRoutes } from './deliveries.js';
import { pageKit, type PageRoutes } from './kit.js';
import { listingsRoutes } from './listings.js';
import { overviewRoutes } from './overview.js';
import { reviewsRoutes } from './reviews.js';
import { rewardsRoutes } from './rewards.js';
import { statsRoutes } from './stats.js';

/** Each of a server's pages (nav.ts lists them for the menu) and its routes: a page without routes does not compile. */
const PAGE_ROUTES: Readonly<Record<ServerPageId, PageRoutes>> = {
  overview: overviewRoutes,
  channels: channelsRoutes,
  announcements: announcementsRoutes,
  rewards: rewardsRoutes,
  reviews: reviewsRoutes,
  listings: listingsRoutes,
  deliveries: deliveriesRoutes,
  stats: statsRoutes,
};

/** The member's servers, then every page of a server. */
export function pageRoutes(app: FastifyInstance, deps: DashboardDeps, sessions: Sessions): void {
  const kit = pageKit(deps, sessions);
  app.get('/', kit.gates.read, async (request, reply) => {
    const member = memberOf(request);
    const i18n = translatorFor(member.locale);
    const guilds = await Promise.all(member.guildIds.map((id) => deps.view.guild(id)));
    const servers = guilds.flatMap((guild) => (guild ? [{ id: guild.id, name: guild.name }] : []));
    return sendPage(request, reply, sessions, {
      i18n,
      title: i18n.t('dashboard.servers.title'),
      body: serversBody(servers, i18n),
    });
  });
  for (const routes of Object.values(PAGE_ROUTES)) routes(app, kit);
}
